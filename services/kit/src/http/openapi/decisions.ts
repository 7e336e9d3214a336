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

/** What `documentHead` takes: the service, its version, its local port and its decisions file. */
export interface DocumentHead {
  service: string;
  version: string;
  /** Where `make dev` serves it (the document's server); none when it has no fixed one. */
  port?: number;
  /** Its decisions.json (`new URL('../decisions.json', import.meta.url)` from src/). */
  decisions: URL;
}

/**
 * The head every service's document shares: `info` (title `edu-platform <service> service`, the
 * version, `description`), the local server and the `x-decisions` read from the service's file.
 */
export function documentHead(head: DocumentHead, description: string) {
  return {
    info: { title: `edu-platform ${head.service} service`, version: head.version, description },
    ...(head.port ? { servers: [{ url: `http://127.0.0.1:${head.port}` }] } : {}),
    'x-decisions': decisionsFrom(head.decisions),
  };
}
