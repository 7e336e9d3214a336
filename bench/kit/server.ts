// One benchmark target, started as `node --import tsx bench/kit/server.ts bare|kit`: the same
// trivial route on bare Express or through the kit's createApp. Both run as the same kind of
// process, so the only difference measured is the kit's per-request path. Prints its port.
import type { AddressInfo } from 'node:net';
import express, { Router, type Request, type Response } from 'express';
import Joi from 'joi';
import { createLogger, createMetricsRegistry } from '../../services/kit/src/core/index.js';
import { createApp, routerFor, routes } from '../../services/kit/src/http/index.js';

const mode = process.argv[2];
const body = { success: true, data: { pong: true }, message: 'OK' };
const handler = (_req: Request, res: Response) => {
  res.json(body);
};

function bare(): express.Express {
  const app = express();
  app.get('/v1/ping', handler);
  return app;
}

/**
 * The route as services declare it (a typed query schema, validated, the handler reading
 * `req.valid`), or with BENCH_KIT_ROUTES=plain as a bare Express route in the kit's app (the
 * before-and-after of one declaration per route).
 */
function kitRoutes(): Router {
  if (process.env.BENCH_KIT_ROUTES === 'plain') return Router().get('/v1/ping', handler);
  const route = routes<null>();
  const query = Joi.object<{ verbose?: boolean }, true>({ verbose: Joi.boolean() });
  const ping = route({
    method: 'get',
    path: '/v1/ping',
    query,
    doc: { summary: 'ping', responses: {} },
    handle: (req, res) => res.json(req.valid.query.verbose ? { ...body, verbose: true } : body),
  });
  return routerFor([ping], null);
}

function kit(): express.Express {
  const routes = kitRoutes();
  // Info level to stdout, as in production: the request line is part of the cost being measured.
  const logger = createLogger({ name: 'bench-kit', level: 'info' });
  return createApp({
    name: 'bench-kit',
    version: '0',
    routes,
    checks: {},
    logger,
    metrics: createMetricsRegistry(),
    openapi: {},
  });
}

const app = mode === 'bare' ? bare() : mode === 'kit' ? kit() : undefined;
if (!app) throw new Error('usage: server.ts bare|kit');
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
// Rounds leave one side idle for a while; its keep-alive connections must survive that.
server.keepAliveTimeout = 600_000;
// CPU time per request is the figure machine noise disturbs least: the parent asks before and after a round.
process.on('message', () => {
  const { user, system } = process.cpuUsage();
  process.send?.({ cpuMicros: user + system });
});
process.on('disconnect', () => process.exit(0));
