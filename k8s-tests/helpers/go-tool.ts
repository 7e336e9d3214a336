// Command-line tools the cluster tests use that no Debian package ships in the version they need
// (kubeconform, kube-score): built once from the Go module proxy into the project's cache.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const cache = process.env.EDU_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'edu-platform');

/** `go install <pkg>@<version>` into `<cache>/<name>-<version>/bin` unless already there; returns the binary. */
export function goTool(name: string, pkg: string, version: string): string {
  const bin = path.join(cache, `${name}-${version}`, 'bin', name);
  if (!existsSync(bin)) {
    execFileSync('go', ['install', `${pkg}@${version}`], {
      env: { ...process.env, GOBIN: path.dirname(bin), PATH: `/usr/local/go/bin:${process.env.PATH}` },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return bin;
}
