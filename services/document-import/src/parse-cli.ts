// `node dist/services/cli.js docx-parse [--out DIR] FILE...`
import { runDocxParse } from './parse-command.js';

process.exitCode = await runDocxParse(process.argv.slice(3), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});
