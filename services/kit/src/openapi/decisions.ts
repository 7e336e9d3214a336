import { readFileSync } from 'node:fs';

/**
 * A service's `x-decisions`: the choices it made where its contract is silent, kept as prose in
 * `decisions.json` beside the service (an array of sentences) and read once when its document is
 * built. The Dockerfile copies every JSON data file next to the compiled code.
 */
export function decisionsFrom(file: URL): string[] {
  const list: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(list) || !list.every((d) => typeof d === 'string')) {
    throw new Error(`${file.pathname}: decisions must be an array of strings`);
  }
  return list;
}
