export function shuffleFor<T>(_seed: string, _items: readonly T[]): T[] {
  throw new Error('not implemented yet');
}
