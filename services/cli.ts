// One image, one entrypoint: `node dist/services/cli.js <service>` starts that service's main.
const SERVICES = [
  'auth',
  'user',
  'analytics',
  'notification',
  'question-bank',
  'attempt',
  'document-import',
  'gateway',
] as const;
// Commands beside the services: name → module.
const COMMANDS: Record<string, string> = {
  'docx-parse': './document-import/src/parse-cli.js',
  peers: './peers/src/main.js',
  'docx-worker': './document-import/src/worker/main.js',
};

const name = process.argv[2];
if (!name || (!(SERVICES as readonly string[]).includes(name) && !COMMANDS[name])) {
  process.stderr.write(
    `usage: cli <service|command>; services: ${SERVICES.join(', ')}; commands: ${Object.keys(COMMANDS).join(', ')}\n`,
  );
  process.exit(2);
}
await import(COMMANDS[name] ?? `./${name}/src/main.js`);
