// One image, one entrypoint: `node dist/services/cli.js <service>` starts that service's main.
// The services and the other commands are those of services/registry.ts.
import { COMMANDS, SERVICES, mainOf } from './registry.js';

const name = process.argv[2];
const main = name === undefined ? undefined : mainOf(name);
if (main === undefined) {
  process.stderr.write(
    `usage: cli <service|command>; services: ${SERVICES.map((s) => s.name).join(', ')}; commands: ${COMMANDS.map((c) => c.name).join(', ')}\n`,
  );
  process.exit(2);
}
await import(main);
