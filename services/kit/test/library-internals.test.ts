// Issue 24: the kit reads three libraries' internals on the request path, each because the public
// API costs measurably more per request (see the comments at each use):
// - router (Express 5's router): `router.stack`, `layer.match(path)`, `layer.route._methods()`,
//   `layer.handle.stack` and `router.params`, for 405 with `Allow` (routing.ts allowedMethods) and
//   for flattening a service router into the app's (routing.ts mountRoutes);
// - pino: the logger's stream and chindings through `pino.symbols`, for the request line
//   (logging.ts requestLineWriter);
// - prom-client: a histogram that is not a prom-client Metric but speaks the Registry's protocol
//   (`get()` returning name, help, type, aggregator and values; `reset()`), metrics.ts.
// Each library is pinned to an exact version in package.json; these tests assert each internal's
// shape and the behaviour the kit builds on it, so an update that changes one fails here first.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import express, { Router, type Request, type Response } from 'express';
import { pino, symbols } from 'pino';
import { Histogram, Registry } from 'prom-client';
import { createLogger, httpDurationObserver } from '../src/core/index.js';
import { allowedMethods, mountRoutes } from '../src/http/routing.js';
import { LogCapture } from './support/log-capture.js';

const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const installed = (name: string): string =>
  (
    JSON.parse(readFileSync(new URL(`../../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

describe('kit library internals: pinned versions', () => {
  for (const name of ['express', 'router', 'pino', 'prom-client']) {
    it(`${name} is pinned exactly, and the pinned version is the one installed`, () => {
      const wanted = manifest.dependencies[name];
      expect(wanted, `${name} in package.json dependencies`).to.match(/^\d+\.\d+\.\d+$/);
      expect(installed(name)).to.equal(wanted);
    });
  }
});

interface LayerShape {
  match(path: string): { path: string } | false;
  route?: { _methods(): string[] };
  handle?: { stack?: unknown[] };
}

const noop = (_req: Request, res: Response) => void res.end();
const layers = (router: Router): LayerShape[] => (router as unknown as { stack: LayerShape[] }).stack;

describe('kit library internals: the router (Express 5)', () => {
  it('keeps a router`s layers in `stack`, each with match() and, for a route, _methods()', () => {
    const router = Router();
    router.get('/v1/items/:id', noop);
    const [layer] = layers(router);
    expect(layers(router)).to.have.length(1);
    expect(layer!.match('/v1/items/42')).to.include({ path: '/v1/items/42' });
    expect(layer!.match('/v1/other')).to.equal(false);
    expect(layer!.route!._methods()).to.deep.equal(['GET', 'HEAD']);
  });

  it('matches a mounted router`s layer by prefix, with the nested stack on its handle', () => {
    const nested = Router();
    nested.delete('/:id', noop);
    const router = Router();
    router.use('/v1/nested', nested);
    const [layer] = layers(router);
    expect(layer!.match('/v1/nested/7')).to.include({ path: '/v1/nested' });
    expect(layer!.handle!.stack).to.equal(layers(nested));
  });

  it('throws from match() on a malformed %-escape in a parameter (safeMatch catches it)', () => {
    const router = Router();
    router.get('/v1/items/:id', noop);
    expect(() => layers(router)[0]!.match('/v1/items/%E0%A4%A')).to.throw(URIError);
  });

  it('keeps param handlers in `params` and the app`s own router on `app.router`', () => {
    const router = Router();
    expect((router as unknown as { params: object }).params).to.deep.equal({});
    router.param('id', (_req, _res, next) => next());
    expect(Object.keys((router as unknown as { params: object }).params)).to.deep.equal(['id']);
    expect(layers(express().router)).to.be.an('array');
  });

  it('gives allowedMethods the methods of every route matching a path, nested ones included', () => {
    const nested = Router();
    nested.get('/:id', noop);
    nested.delete('/:id', noop);
    const router = Router();
    router.post('/v1/items', noop);
    router.use('/v1/nested', nested);
    expect([...allowedMethods(layers(router), '/v1/items')]).to.deep.equal(['POST']);
    expect([...allowedMethods(layers(router), '/v1/nested/3')].sort()).to.deep.equal(['DELETE', 'GET', 'HEAD']);
    expect(allowedMethods(layers(router), '/v1/none').size).to.equal(0);
  });

  it('lets mountRoutes move a plain router`s layers into the app`s stack, and mount one with params', () => {
    const app = express();
    const before = layers(app.router).length;
    const plain = Router();
    plain.get('/a', noop);
    plain.post('/b', noop);
    mountRoutes(app, plain);
    expect(layers(app.router).slice(before)).to.deep.equal(layers(plain));
    const withParam = Router();
    withParam.param('id', (_req, _res, next) => next());
    withParam.get('/c/:id', noop);
    mountRoutes(app, withParam);
    expect(layers(app.router).at(-1)!.handle).to.equal(withParam);
  });
});

describe('kit library internals: pino', () => {
  it('exposes the stream and the chindings symbols, and keeps the destination and the bound fields there', () => {
    const logs = new LogCapture();
    const logger = pino({ base: { name: 'svc' } }, logs).child({ reqId: 'r1' });
    const internals = logger as unknown as Record<symbol, unknown>;
    expect(symbols.streamSym).to.be.a('symbol');
    expect(symbols.chindingsSym).to.be.a('symbol');
    expect(internals[symbols.streamSym]).to.equal(logs);
    expect(internals[symbols.chindingsSym]).to.equal(',"name":"svc","reqId":"r1"');
  });

  it('writes a line as level, time, the chindings, the fields, msg (the layout requestLineWriter copies)', () => {
    const logs = new LogCapture();
    const logger = createLogger({ name: 'svc', destination: logs });
    logger.info({ a: 1 }, 'm');
    const chindings = (logger as unknown as Record<symbol, unknown>)[symbols.chindingsSym] as string;
    const layout = /^\{"level":30,"time":"[^"]+"(.*),"a":1,"msg":"m"\}$/.exec(logs.lines[0] ?? '');
    expect(layout?.[1]).to.equal(chindings);
    expect(chindings).to.include('"name":"svc"');
  });
  // The byte-for-byte comparison of requestLineWriter with logger.info is request-line.test.ts.
});

describe('kit library internals: prom-client', () => {
  const observations = [
    ['GET', '/v1/a', 200, 0.003],
    ['GET', '/v1/a', 200, 0.3],
    ['POST', '/v1/b/:id', 404, 7],
    ['GET', '/v1/a', 500, 0.005],
  ] as const;

  it('exposes the kit`s duration histogram exactly as a prom-client Histogram would', async () => {
    const kit = new Registry();
    const own = new Registry();
    const observe = httpDurationObserver(kit);
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [own],
    });
    for (const [method, route, status, seconds] of observations) {
      observe(method, route, status, seconds);
      histogram.observe({ method, route, status: String(status) }, seconds);
    }
    expect(await kit.metrics()).to.equal(await own.metrics());
  });

  it('is emptied by the registry`s resetMetrics, as prom-client`s own metrics are', async () => {
    const kit = new Registry();
    const observe = httpDurationObserver(kit);
    observe('GET', '/v1/a', 200, 0.1);
    kit.resetMetrics();
    expect(await kit.metrics()).to.not.include('http_request_duration_seconds_count');
  });
});
