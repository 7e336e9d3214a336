// Counts the work a synchronous call does without a clock: characters every regular expression reads (each exec,
// as test, match, matchAll, replace and split call it once the method is replaced), elements every array method
// or array iteration (for…of, spread, Array.from) walks, and characters every string join builds. A count is the
// same on a loaded machine as on a quiet one, so work that grows faster than the input shows as a ratio of counts.
interface Patched {
  target: object;
  key: PropertyKey;
  original: unknown;
}

const ARRAY_WALKS = [
  'map',
  'filter',
  'some',
  'every',
  'find',
  'findIndex',
  'forEach',
  'reduce',
  'flatMap',
  'indexOf',
  'includes',
  'concat',
] as const;

let units = 0;

function patch(list: Patched[], target: object, key: PropertyKey, make: (original: never) => unknown): void {
  const original = (target as Record<PropertyKey, unknown>)[key];
  list.push({ target, key, original });
  Object.defineProperty(target, key, { value: make(original as never), configurable: true, writable: true });
}

function install(): Patched[] {
  const list: Patched[] = [];
  patch(list, RegExp.prototype, 'exec', (exec: (this: RegExp, s: string) => RegExpExecArray | null) => {
    return function (this: RegExp, s: string) {
      const from = this.global || this.sticky ? this.lastIndex : 0;
      const m = exec.call(this, s);
      // what the engine read at least: up to the end of the match, or the rest of the string (1 for a sticky miss)
      units += m ? m.index + m[0].length - from + 1 : this.sticky ? 1 : String(s).length - from + 1;
      return m;
    };
  });
  for (const name of ARRAY_WALKS) {
    patch(list, Array.prototype, name, (f: (...a: unknown[]) => unknown) => {
      return function (this: unknown[], ...args: unknown[]) {
        units += this.length + 1;
        return f.apply(this, args);
      };
    });
  }
  patch(list, Array.prototype, 'join', (join: (this: unknown[], sep?: string) => string) => {
    return function (this: unknown[], sep?: string) {
      const out = join.call(this, sep);
      units += this.length + out.length + 1;
      return out;
    };
  });
  patch(list, Array.prototype, 'slice', (slice: (this: unknown[], a?: number, b?: number) => unknown[]) => {
    return function (this: unknown[], a?: number, b?: number) {
      const out = slice.call(this, a, b);
      units += out.length + 1;
      return out;
    };
  });
  const arrayIterator = Object.getPrototypeOf([][Symbol.iterator]()) as { next: () => unknown };
  patch(list, arrayIterator, 'next', (next: (this: unknown) => unknown) => {
    return function (this: unknown) {
      units += 1;
      return next.call(this);
    };
  });
  return list;
}

/** The units of work `fn` did (see above). The built-ins are restored before returning, even when `fn` throws. */
export function measureWork(fn: () => void): number {
  const list = install();
  units = 0;
  try {
    fn();
    return units;
  } finally {
    for (const p of list.reverse()) {
      Object.defineProperty(p.target, p.key, { value: p.original, configurable: true, writable: true });
    }
  }
}
