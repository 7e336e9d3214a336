import { expect } from 'chai';
import { Router } from 'express';
import request from 'supertest';
import { createLogger, createMetricsRegistry } from '../src/core/index.js';
import { createApp, ok, requireRole } from '../src/http/index.js';
import { LogCapture } from './support/log-capture.js';

function guardedApp() {
  const routes = Router();
  routes.post('/v1/questions', requireRole('ADMIN', 'TEACHER'), (_req, res) => ok(res, { created: true }, 'OK', 201));
  return createApp({
    name: 'kit-roles-test',
    version: '0.0.0',
    routes,
    checks: {},
    logger: createLogger({ name: 'kit-roles-test', destination: new LogCapture() }),
    metrics: createMetricsRegistry(),
    openapi: {},
  });
}

describe('requireRole', () => {
  const app = guardedApp();

  it('lets an allowed role through, whichever header spelling is used', async () => {
    const a = await request(app).post('/v1/questions').set({ 'X-User-Id': 'u1', 'X-User-Role': 'TEACHER' });
    expect([a.status, a.body.data]).to.deep.equal([201, { created: true }]);
    const b = await request(app).post('/v1/questions').set({ 'X-Actor-Id': 'u2', 'X-Actor-Role': 'admin' });
    expect(b.status).to.equal(201);
  });

  it('401 UNAUTHENTICATED without an actor id', async () => {
    const res = await request(app).post('/v1/questions').set({ 'X-User-Role': 'ADMIN' });
    expect([res.status, res.body.error.code]).to.deep.equal([401, 'UNAUTHENTICATED']);
  });

  it('403 FORBIDDEN for a role not allowed, or no role', async () => {
    const student = await request(app).post('/v1/questions').set({ 'X-User-Id': 'u1', 'X-User-Role': 'STUDENT' });
    expect([student.status, student.body.error.code]).to.deep.equal([403, 'FORBIDDEN']);
    expect(student.body.message).to.equal('This action requires role ADMIN or TEACHER');
    const none = await request(app).post('/v1/questions').set({ 'X-User-Id': 'u1' });
    expect(none.status).to.equal(403);
  });

  it('400 for a role the platform does not know (readActor), not 403', async () => {
    const res = await request(app).post('/v1/questions').set({ 'X-User-Id': 'u1', 'X-User-Role': 'ROOT' });
    expect([res.status, res.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
  });

  it('refuses to be declared without roles or with an unknown one', () => {
    expect(() => requireRole()).to.throw('at least one role');
    expect(() => requireRole('ADMIN', 'ROOT' as never)).to.throw('unknown role ROOT');
  });
});
