// One image, one entrypoint: `node dist/services/cli.js <service>` starts that service's main.
const SERVICES = ['auth'] as const;

const name = process.argv[2];
if (!name || !(SERVICES as readonly string[]).includes(name)) {
  process.stderr.write(`usage: cli <service>; services: ${SERVICES.join(', ')}\n`);
  process.exit(2);
}
await import(`./${name}/src/main.js`);
