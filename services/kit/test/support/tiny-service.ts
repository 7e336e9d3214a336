// A tiny service started through runService in a child process by service.process.test.ts: a
// slow route held until shutdown begins, a background worker, and a before-drain hook, each of
// which logs, so the test can read the shutdown order from stdout.
import { Router } from 'express';
import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../../src/core/index.js';
import { createApp, ok } from '../../src/http/index.js';
import { runService } from '../../src/service/index.js';

interface TinyConfig extends CommonConfig {
  MONGODB_DB: string;
  TINY_LABEL: string;
}

const tick = () => new Promise((r) => setTimeout(r, 10));

runService<TinyConfig, { app: ReturnType<typeof createApp> }>({
  name: 'tiny',
  configSchema: Joi.object<TinyConfig>({
    ...commonConfig,
    MONGODB_DB: Joi.string().default('edu_tiny'),
    TINY_LABEL: Joi.string().max(5).default('tiny'),
  }),
  async build({ logger, metrics, readiness, checks }) {
    const routes = Router();
    routes.get('/v1/slow', async (_req, res) => {
      logger.info('slow request started');
      while (!readiness.shuttingDown) await tick();
      logger.info('slow request answered');
      ok(res, 'done');
    });
    const app = createApp({ name: 'tiny', version: '0', routes, checks, logger, metrics, openapi: {}, readiness });
    let working = true;
    const worker = (async () => {
      while (working) await tick();
    })();
    return {
      app,
      beforeDrain: [() => logger.info('before drain hook')],
      stoppers: [
        async () => {
          working = false;
          await worker;
          logger.info('worker stopped');
        },
      ],
    };
  },
});
