import type { JsonObject } from './json-schema.js';

const requiredSets = (peers: string[]): JsonObject[] => peers.map((p) => ({ required: [p] }));

/** joi's peer rules as JSON Schema: or (one at least), xor (exactly one), oxor (at most one), and. */
export function dependency({ rel, peers }: { rel: string; peers: string[] }): JsonObject {
  if (rel === 'or') return { anyOf: requiredSets(peers) };
  if (rel === 'xor') return { oneOf: requiredSets(peers) };
  if (rel === 'oxor') return { not: { anyOf: pairs(peers).map((pair) => ({ required: pair })) } };
  if (rel === 'and') return { anyOf: [{ required: peers }, { not: { anyOf: requiredSets(peers) } }] };
  throw new Error(`joi object rule ${rel} has no document form; use documentedAs()`);
}

function pairs(peers: string[]): string[][] {
  return peers.flatMap((a, i) => peers.slice(i + 1).map((b) => [a, b]));
}
