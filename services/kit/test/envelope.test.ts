import { expect } from 'chai';
import { Router } from 'express';
import Joi from 'joi';
import request from 'supertest';
import { createLogger, createMetricsRegistry, listMeta, pageParams } from '../src/core/index.js';
import { createApp, list, pagingKeys, validate } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

describe('list envelope paging (pure)', () => {
  it('defaults to page 1, limit 20', () => {
    expect(pageParams({})).to.deep.equal({ page: 1, limit: 20, skip: 0 });
  });

  it('reads numeric strings as the query parser gives them and computes skip', () => {
    expect(pageParams({ page: '3', limit: '25' })).to.deep.equal({ page: 3, limit: 25, skip: 50 });
    expect(pageParams({ page: 2, limit: 10 })).to.deep.equal({ page: 2, limit: 10, skip: 10 });
  });

  it('clamps limit to 1..100 and page to at least 1 instead of refusing', () => {
    expect(pageParams({ limit: '0' }).limit).to.equal(1);
    expect(pageParams({ limit: '-5' }).limit).to.equal(1);
    expect(pageParams({ limit: '101' }).limit).to.equal(100);
    expect(pageParams({ limit: '1e9' }).limit).to.equal(100);
    expect(pageParams({ page: '0' }).page).to.equal(1);
    expect(pageParams({ page: '-2' }).page).to.equal(1);
  });

  it('takes the default for absent, empty, non-numeric and object values', () => {
    for (const bad of ['', '  ', 'abc', '20abc', 'NaN', {}, null, true]) {
      expect(pageParams({ page: bad, limit: bad }), String(bad)).to.deep.equal({ page: 1, limit: 20, skip: 0 });
    }
  });

  it('truncates fractions and takes the first of repeated values', () => {
    expect(pageParams({ page: '2.9', limit: '10.5' })).to.deep.equal({ page: 2, limit: 10, skip: 10 });
    expect(pageParams({ page: ['4', '9'], limit: ['5'] })).to.deep.equal({ page: 4, limit: 5, skip: 15 });
  });

  it('keeps skip a safe integer for absurd pages', () => {
    const p = pageParams({ page: '1e308', limit: '100' });
    expect(Number.isSafeInteger(p.skip)).to.equal(true);
    expect(pageParams({ page: 'Infinity' }).page).to.equal(p.page);
  });

  it('honours a contract that states other defaults', () => {
    expect(pageParams({}, { defaultLimit: 50, maxLimit: 200 }).limit).to.equal(50);
    expect(pageParams({ limit: '500' }, { maxLimit: 200 }).limit).to.equal(200);
  });

  it('pagingKeys: a joi fragment with the same clamp that never fails validation', () => {
    const schema = Joi.object({ ...pagingKeys(), q: Joi.string() });
    expect(schema.validate({}).value).to.deep.equal({ page: 1, limit: 20 });
    const { value, error } = schema.validate({ page: 'x', limit: '1000', q: 'a' });
    expect(error).to.equal(undefined);
    expect(value).to.deep.equal({ page: 1, limit: 100, q: 'a' });
    expect(schema.validate({ page: '3', limit: '7' }).value).to.deep.equal({ page: 3, limit: 7 });
  });

  it('listMeta: totalPages rounds up and is 0 for an empty list', () => {
    expect(listMeta({ page: 1, limit: 20 }, 41)).to.deep.equal({ page: 1, limit: 20, total: 41, totalPages: 3 });
    expect(listMeta({ page: 1, limit: 20 }, 40).totalPages).to.equal(2);
    expect(listMeta({ page: 1, limit: 20 }, 0).totalPages).to.equal(0);
  });
});

describe('list() through an app', () => {
  const rows = Array.from({ length: 45 }, (_, i) => ({ n: i + 1 }));
  const routes = Router();
  routes.get('/v1/rows', validate({ query: Joi.object({ ...pagingKeys() }) }), (req, res) => {
    const page = pageParams(req.valid?.query ?? {});
    list(res, rows.slice(page.skip, page.skip + page.limit), { ...page, total: rows.length });
  });
  const app = createApp({
    name: 'kit-list-test',
    version: '0.0.0',
    routes,
    checks: {},
    logger: createLogger({ name: 'kit-list-test', destination: new LogCapture() }),
    metrics: createMetricsRegistry(),
    openapi: {},
  });

  it('answers { items, meta } in the success envelope', async () => {
    const res = await request(app).get('/v1/rows?page=3&limit=20');
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.message).to.equal('OK');
    expect(res.body.data.items).to.deep.equal([{ n: 41 }, { n: 42 }, { n: 43 }, { n: 44 }, { n: 45 }]);
    expect(res.body.data.meta).to.deep.equal({ page: 3, limit: 20, total: 45, totalPages: 3 });
  });

  it('clamps garbage paging to a 200, never a 400', async () => {
    const res = await request(app).get('/v1/rows?page=abc&limit=1000');
    expect(res.status).to.equal(200);
    expect(res.body.data.meta).to.deep.equal({ page: 1, limit: 100, total: 45, totalPages: 1 });
    expect(res.body.data.items).to.have.length(45);
  });
});
