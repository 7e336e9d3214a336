// A tiny process on runProcess, started in a child process by process.process.test.ts. TINY_MODE:
// `serve` listens and waits for a signal; `fail` fails its start after opening one closer;
// `command` ends by itself with exit code 3, or with 0 when a signal aborts it first. Every closer
// logs, so the test reads their order from stdout.
import type { IncomingMessage, ServerResponse } from 'node:http';
import Joi from 'joi';
import { runProcess, type Logger, type ProcessStart } from '../../src/core/index.js';

interface TinyConfig {
  TINY_MODE: 'serve' | 'fail' | 'command';
  PORT: number;
  LOG_LEVEL: string;
}

const closer = (logger: Logger, name: string) => async () => logger.info(`closer ${name}`);

runProcess<TinyConfig, ProcessStart>({
  name: 'tiny-process',
  configSchema: Joi.object<TinyConfig>({
    TINY_MODE: Joi.string().valid('serve', 'fail', 'command').required(),
    PORT: Joi.number().port().default(0),
    LOG_LEVEL: Joi.string().default('info'),
  }),
  async start({ config, logger, closers, stopSignal }) {
    closers.push(closer(logger, 'first'), closer(logger, 'second'));
    if (config.TINY_MODE === 'fail') throw new Error('the tiny start failed');
    if (config.TINY_MODE === 'command') {
      const done = new Promise<number>((resolve) => {
        if (!process.env.TINY_WAIT) return resolve(3);
        // Work in hand keeps a process up; this stands for it until the signal.
        const working = setInterval(() => undefined, 1000);
        stopSignal.addEventListener('abort', () => {
          clearInterval(working);
          resolve(0);
        });
      });
      logger.info('command running');
      return { done };
    }
    const readiness = { shuttingDown: false };
    const app = (_req: IncomingMessage, res: ServerResponse) => res.end(readiness.shuttingDown ? 'leaving' : 'ok');
    const listening = (port: number) => logger.info({ port }, 'tiny process listening');
    return { http: { app, port: config.PORT, host: '127.0.0.1', readiness, graceMs: 5000, listening } };
  },
});
