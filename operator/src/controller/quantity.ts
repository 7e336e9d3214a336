// Kubernetes resource quantities (`500m`, `1.5`, `256Mi`, `2G`, `1e3`), read as a number of base
// units so that a worker's requests and limits can be compared with the operator's bounds.

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

// The grammar of resource.Quantity: a signed decimal, then a binary or decimal suffix or an exponent.
const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** The quantity in base units (cores, bytes), or undefined when it is not a quantity. */
export function parseQuantity(text: unknown): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? text : undefined;
  if (typeof text !== 'string' || text.length > 64) return undefined;
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]);
  const suffix = m[2] ?? '';
  if (/^[eE]/.test(suffix)) return value * 10 ** Number(suffix.slice(1));
  return value * (BINARY[suffix] ?? DECIMAL[suffix] ?? NaN);
}
