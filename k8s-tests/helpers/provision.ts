// What the suites' root hooks (node-setup.ts, kind-setup.ts) share: running a provisioning script
// of scripts/ and reading the KEY=value lines it prints on stdout (its stderr is the run's log).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs scripts/<name> with bash; returns its stdout (env lines, paths). Throws when it fails. */
export function runScript(name: string, args: string[]): string {
  return execFileSync('bash', [path.join(root, 'scripts', name), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Sets process.env[key] from each `key=value` line of a script's output; a missing key throws. */
export function exportLines(out: string, keys: string[]): void {
  for (const key of keys) {
    const value = new RegExp(`^${key}=(.+)$`, 'm').exec(out)?.[1];
    if (!value) throw new Error(`a line ${key}= was expected in:\n${out}`);
    process.env[key] = value;
  }
}
