// The version pins of scripts/lib/versions.sh for TypeScript: tests that fetch or run the same
// tools and servers as the scripts read the one file rather than a copy of a pin.
import { readFileSync } from 'node:fs';

const FILE = new URL('./versions.sh', import.meta.url);

/** The value of `NAME=value` in scripts/lib/versions.sh; throws when the file has no such pin. */
export function versionPin(name: string): string {
  const line = readFileSync(FILE, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}=`));
  const value = line?.slice(name.length + 1).split(/\s/)[0];
  if (!value) throw new Error(`scripts/lib/versions.sh has no pin ${name}`);
  return value;
}
