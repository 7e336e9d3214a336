// `node dist/services/cli.js docx-parse [--out DIR] FILE...`: a one-shot command on the kit's
// lifecycle (its exit code is the command's; a bad LOG_LEVEL exits 1 naming it).
import Joi from 'joi';
import { runProcess, type ProcessStart } from '../../kit/src/core/index.js';
import { runDocxParse } from './parse-command.js';

const parseConfig = Joi.object<{ LOG_LEVEL: string }, true>({
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('warn'),
}).unknown(true);

runProcess<{ LOG_LEVEL: string }, ProcessStart>({
  name: 'docx-parse',
  configSchema: parseConfig,
  logDestination: process.stderr,
  async start() {
    const io = { stdout: (s: string) => process.stdout.write(s), stderr: (s: string) => process.stderr.write(s) };
    return { done: runDocxParse(process.argv.slice(3), io) };
  },
});
