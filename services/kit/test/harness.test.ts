import { expect } from 'chai';
import { Router } from 'express';
import Joi from 'joi';
import mongoose, { Schema } from 'mongoose';
import { commonConfig, type CommonConfig } from '../src/core/index.js';
import { syncIndexes } from '../src/data/index.js';
import { createApp, ok } from '../src/http/index.js';
import type { ServiceDefinition } from '../src/service/index.js';
import { startTestService, type TestService } from './support/harness.js';
import { testDbName, testMongoUri } from './support/servers.js';

interface NotesConfig extends CommonConfig {
  MONGODB_DB: string;
}

/** A service as small as a service gets: one model with a unique index, one route. */
const notesService: ServiceDefinition<NotesConfig, { app: ReturnType<typeof createApp> }> = {
  name: 'notes',
  configSchema: Joi.object<NotesConfig>({ ...commonConfig, MONGODB_DB: Joi.string().default('edu_notes') }),
  async build({ db, logger, metrics, readiness, checks }) {
    const Note = db.conn.model('Note', new Schema({ slug: { type: String, unique: true } }));
    await syncIndexes(db.conn);
    const routes = Router();
    routes.post('/v1/notes', async (req, res) => {
      ok(res, (await Note.create({ slug: (req.body as { slug: string }).slug })).slug, 'OK', 201);
    });
    return { app: createApp({ name: 'notes', version: '1', routes, checks, logger, metrics, openapi: {}, readiness }) };
  },
};

describe('kit test harness: startTestService', () => {
  let svc: TestService<NotesConfig, { app: ReturnType<typeof createApp> }>;
  before(async () => (svc = await startTestService(notesService, { file: import.meta.url, kafka: true })));
  after(() => svc.close());

  it('starts the service on its own database, listening on a port of its own, logs captured', async () => {
    expect(svc.config.MONGODB_DB).to.equal(testDbName('notes', import.meta.url));
    expect(svc.db.conn.name).to.equal(svc.config.MONGODB_DB);
    expect(svc.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ready = await svc.request.get('/readyz');
    expect(ready.body.data.checks).to.deep.equal({ mongodb: 'ok', kafka: 'ok' });
    expect(svc.logs.records().some((r) => r.msg === 'request' && r.route === '/readyz')).to.equal(true);
  });

  it('clearCollections empties every collection and keeps the unique indexes', async () => {
    await svc.request.post('/v1/notes').send({ slug: 'a' }).expect(201);
    await svc.clearCollections();
    expect(await svc.db.conn.models.Note!.countDocuments()).to.equal(0);
    expect(svc.logs.lines).to.deep.equal([]);
    await svc.request.post('/v1/notes').send({ slug: 'b' }).expect(201);
    const duplicate = await svc.request.post('/v1/notes').send({ slug: 'b' });
    expect(duplicate.status).to.not.equal(201);
    expect(await svc.db.conn.models.Note!.countDocuments()).to.equal(1);
  });

  it('close drops the database and shuts the service down', async () => {
    const other = await startTestService(notesService, { file: `${import.meta.url}-closing` });
    await other.request.post('/v1/notes').send({ slug: 'x' }).expect(201);
    const dbName = other.config.MONGODB_DB;
    await other.close();
    expect(
      await fetch(`${other.url}/healthz`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).to.equal('refused');
    const probe = await mongoose.createConnection(testMongoUri()).asPromise();
    try {
      const { databases } = await probe.db!.admin().listDatabases();
      expect(databases.map((d) => d.name)).to.not.include(dbName);
    } finally {
      await probe.close();
    }
  });
});
