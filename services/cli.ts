// One image, one entrypoint: `node dist/services/cli.js <service>` starts that service's main.
// Each main is named here literally, so the build and a reader see what runs;
// services/test/registry.test.ts holds this table to services/registry.ts.
import { COMMANDS, SERVICES } from './registry.js';

const MAINS: Readonly<Record<string, () => Promise<unknown>>> = {
  auth: () => import('./auth/src/main.js'),
  user: () => import('./user/src/main.js'),
  analytics: () => import('./analytics/src/main.js'),
  notification: () => import('./notification/src/main.js'),
  'question-bank': () => import('./question-bank/src/main.js'),
  attempt: () => import('./attempt/src/main.js'),
  'document-import': () => import('./document-import/src/main.js'),
  gateway: () => import('./gateway/src/main.js'),
  peers: () => import('./peers/src/main.js'),
  'docx-worker': () => import('./document-import/src/worker/main.js'),
  'docx-parse': () => import('./document-import/src/parse-cli.js'),
};

const start = MAINS[process.argv[2] ?? ''];
if (!start) {
  const services = SERVICES.map((s) => s.name).join(', ');
  const commands = COMMANDS.map((c) => c.name).join(', ');
  process.stderr.write(`usage: cli <service|command>; services: ${services}; commands: ${commands}\n`);
  process.exit(2);
}
await start();
