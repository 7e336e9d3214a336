/**
 * Writes (or, with --check, compares) every service's `openapi.json` from its route declarations:
 * the checked-in file is a build output, kept for review and for clients that read it.
 *   npx tsx services/openapi.ts [--check] [service...]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { authDocument } from './auth/src/openapi.js';
import type { JsonObject } from './kit/src/http/index.js';
import { importDocument } from './document-import/src/openapi.js';
import { gatewayDocument } from './gateway/src/openapi.js';
import { attemptDocument } from './attempt/src/openapi.js';
import { peersDocument } from './peers/src/openapi.js';
import { analyticsDocument } from './analytics/src/openapi.js';
import { notificationDocument } from './notification/src/openapi.js';
import { questionBankDocument } from './question-bank/src/openapi.js';
import { userDocument } from './user/src/openapi.js';

/** The services whose document is generated, and how each is built. */
export const GENERATED_DOCUMENTS: Readonly<Record<string, () => JsonObject>> = {
  'document-import': importDocument,
  gateway: gatewayDocument,
  auth: authDocument,
  analytics: analyticsDocument,
  notification: notificationDocument,
  'question-bank': questionBankDocument,
  user: userDocument,
  attempt: attemptDocument,
  peers: peersDocument,
};

/** Where a service's checked-in document lives. */
export function documentFile(service: string): string {
  return fileURLToPath(new URL(`./${service}/openapi.json`, import.meta.url));
}

/** The document's text as checked in: the repository's prettier style for JSON. */
export async function renderDocument(service: string): Promise<string> {
  const build = GENERATED_DOCUMENTS[service];
  if (!build) throw new Error(`no generated document for ${service}`);
  const file = documentFile(service);
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(JSON.stringify(build()), { ...options, filepath: file });
}

async function main(args: string[]): Promise<number> {
  const check = args.includes('--check');
  const named = args.filter((a) => a !== '--check');
  const services = named.length > 0 ? named : Object.keys(GENERATED_DOCUMENTS);
  let stale = 0;
  for (const service of services) {
    const text = await renderDocument(service);
    const file = documentFile(service);
    if (!check) writeFileSync(file, text);
    else if (readFileSync(file, 'utf8') !== text) {
      stale += 1;
      process.stderr.write(`${file} is stale: run npx tsx services/openapi.ts ${service}\n`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
