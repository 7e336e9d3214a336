import type { V1Volume, V1VolumeMount } from '@kubernetes/client-node';

// Files from Secrets in the worker pods (Kafka's CA and client certificate, MongoDB's CA): the
// operator's configuration names them (WORKER_SECRET_FILES), a job never does.

/** One Secret key mounted as one file. */
export interface SecretFile {
  secret: string;
  key: string;
  /** Absolute, under SECRET_FILES_ROOT. */
  path: string;
}

/** The only directory tree secret files may land in: nothing of the image can be shadowed. */
export const SECRET_FILES_ROOT = '/etc/edu-platform/';

const secretName = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const secretKey = /^[-._a-zA-Z0-9]+$/;
const segment = /^[A-Za-z0-9_][-A-Za-z0-9._]*$/;

const dirOf = (path: string): string => path.slice(0, path.lastIndexOf('/'));
const baseOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

function entryProblem(entry: string, file: SecretFile | undefined): string | undefined {
  if (!file) return `"${entry}" is not secretName:key:/absolute/path`;
  if (file.secret.length > 253 || !secretName.test(file.secret))
    return `"${entry}": ${file.secret} is not a Secret name (DNS-1123 subdomain)`;
  if (file.key.length > 253 || !secretKey.test(file.key)) return `"${entry}": ${file.key} is not a Secret key`;
  if (!file.path.startsWith(SECRET_FILES_ROOT)) return `"${entry}": the path must be under ${SECRET_FILES_ROOT}`;
  const segments = file.path.slice(1).split('/');
  if (segments.some((s) => s === '.' || s === '..' || !segment.test(s)))
    return `"${entry}": the path must be plain names joined by / (no ., .., empty or odd segments)`;
  return undefined;
}

function splitEntry(entry: string): SecretFile | undefined {
  const first = entry.indexOf(':');
  const second = entry.indexOf(':', first + 1);
  if (first <= 0 || second <= first + 1) return undefined;
  return { secret: entry.slice(0, first), key: entry.slice(first + 1, second), path: entry.slice(second + 1) };
}

// Each directory becomes one read-only mount: a file may not sit where another mount's directory
// is, and a directory may not sit inside another (the outer mount is read-only: no mount point).
function layoutProblems(files: readonly SecretFile[]): string[] {
  const problems: string[] = [];
  const paths = new Set<string>();
  for (const f of files) {
    if (paths.has(f.path)) problems.push(`${f.path} is named twice`);
    paths.add(f.path);
  }
  const dirs = [...new Set(files.map((f) => dirOf(f.path)))];
  for (const d of dirs) {
    const outer = dirs.find((o) => o !== d && d.startsWith(`${o}/`));
    if (outer) problems.push(`${d} lies inside ${outer}: files from Secrets go in sibling directories`);
    if (paths.has(d)) problems.push(`${d} is both a file and the directory of another file`);
  }
  return problems;
}

/** WORKER_SECRET_FILES (`secretName:key:/absolute/path`, comma-separated), or every reason it is wrong. */
export function parseSecretFiles(text: string): { files: SecretFile[]; problems: string[] } {
  const entries = text === '' ? [] : text.split(',');
  const files: SecretFile[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const file = splitEntry(entry);
    const problem = entryProblem(entry, file);
    if (problem) problems.push(problem);
    else if (file) files.push(file);
  }
  return { files, problems: problems.length > 0 ? problems : layoutProblems(files) };
}

/**
 * One projected volume per directory, a source per Secret and an item per key, mounted read-only.
 * Files are 0440 and group-owned by the pod's fsGroup when it has one; without fsGroup they are
 * owned by root, so 0444 is what lets the non-root worker read them (one container per pod).
 */
export function secretFileVolumes(
  files: readonly SecretFile[],
  fsGroup: number | undefined,
): { volumes: V1Volume[]; mounts: V1VolumeMount[] } {
  const dirs = [...new Set(files.map((f) => dirOf(f.path)))].sort();
  const defaultMode = fsGroup === undefined ? 0o444 : 0o440;
  const volumes: V1Volume[] = [];
  const mounts: V1VolumeMount[] = [];
  dirs.forEach((dir, i) => {
    const name = `secret-files-${i}`;
    const here = files.filter((f) => dirOf(f.path) === dir);
    const secrets = [...new Set(here.map((f) => f.secret))].sort();
    const sources = secrets.map((secret) => ({
      secret: {
        name: secret,
        items: here.filter((f) => f.secret === secret).map((f) => ({ key: f.key, path: baseOf(f.path) })),
      },
    }));
    volumes.push({ name, projected: { defaultMode, sources } });
    mounts.push({ name, mountPath: dir, readOnly: true });
  });
  return { volumes, mounts };
}
