import { expect } from 'chai';
import express from 'express';
import Joi from 'joi';
import request from 'supertest';
import { errorMiddleware, createLogger } from '../src/core/index.js';
import { routeOrder, routerFor, routes } from '../src/http/index.js';

const route = routes<{ prefix: string }>();
const doc = { summary: 's', responses: {} };
const idParams = Joi.object<{ id: string }, true>({ id: Joi.string().max(5).required() });

// Declared parameterised first on purpose: the kit, not the declaration order, keeps `/bulk` fixed.
const declared = [
  route({
    method: 'get',
    path: '/v1/items/:id',
    params: idParams,
    doc,
    handle: (req, res, deps) => res.json({ got: `${deps.prefix}${req.valid.params.id}` }),
  }),
  route({
    method: 'delete',
    path: '/v1/items/:id',
    params: idParams,
    doc,
    handle: (_req, res) => res.json({ deleted: true }),
  }),
  route({ method: 'post', path: '/v1/items/bulk', doc, handle: (_req, res) => res.json({ bulk: true }) }),
  route({ method: 'get', path: '/v1/items/events', doc, handle: (_req, res) => res.json({ events: true }) }),
];

function app() {
  const a = express();
  a.use(routerFor(declared, { prefix: 'item-' }));
  a.use(errorMiddleware(createLogger({ name: 'route-test', level: 'silent' })));
  return a;
}

describe('routes and routerFor', () => {
  it('orders fixed segments before parameters, position by position', () => {
    const paths = ['/v1/a/:id', '/v1/a/bulk', '/v1/:x/c', '/v1/b/c', '/v1/a/:id/sub', '/v1/a/bulk/sub'];
    const sorted = paths.map((path) => ({ path })).sort(routeOrder);
    expect(sorted.map((p) => p.path)).to.deep.equal([
      '/v1/a/bulk',
      '/v1/a/bulk/sub',
      '/v1/a/:id',
      '/v1/a/:id/sub',
      '/v1/b/c',
      '/v1/:x/c',
    ]);
  });

  it('validates, passes the converted input and the dependencies to the handler', async () => {
    const res = await request(app()).get('/v1/items/abc').expect(200);
    expect(res.body).to.deep.equal({ got: 'item-abc' });
    const bad = await request(app()).get('/v1/items/toolong').expect(400);
    expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
  });

  it('a fixed path is never taken for an id: its own methods answer, others are 405 with Allow', async () => {
    expect((await request(app()).post('/v1/items/bulk').expect(200)).body).to.deep.equal({ bulk: true });
    const refused = await request(app()).delete('/v1/items/bulk').expect(405);
    expect(refused.headers.allow).to.equal('POST');
    expect((await request(app()).delete('/v1/items/abc').expect(200)).body).to.deep.equal({ deleted: true });
  });

  it('a fixed GET path allows HEAD too, as Express answers it', async () => {
    await request(app()).head('/v1/items/events').expect(200);
    const refused = await request(app()).delete('/v1/items/events').expect(405);
    expect(refused.headers.allow).to.equal('GET, HEAD');
  });
});
