import type { RequestHandler } from 'express';
import { readActor } from '../../../kit/src/core/index.js';
import { errorResponses, ok, okResponse, ref, sse, StreamRegistry, type Route } from '../../../kit/src/http/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { permanentDelete, permanentDeleteImpact } from '../domain/deletion/impact.js';
import { cancelJob, createJob, getJob, streamJob } from '../domain/deletion/jobs.js';
import type { NewJobInput } from '../domain/deletion/plan.js';
import { impactBody, jobBody, jobIdParams, permanentDeleteBody } from '../schemas/deletion.js';
import { writerOf, type Writer } from '../domain/questions/scope.js';
import { okWithMessage, standardErrors } from './docs.js';
import { okWith, writeRoute, writerCall } from './declare.js';

const BASE = '/v1/questions/permanent-delete';
/** Heartbeat comments on job streams, under common proxy idle timeouts. */
export const JOB_STREAM_HEARTBEAT_MS = 10_000;

const TAGS = ['Permanent deletion'];
const JOB = ref('schemas', 'DeletionJob');
const BODY_ERRORS = standardErrors(400, 401, 403, 413, 415, 500, 503);
const JOB_ERRORS = {
  ...standardErrors(400, 401, 403, 500, 503),
  ...errorResponses({
    404: "DELETION_JOB_NOT_FOUND: no job with this id was created by this actor in this organization (another actor's or organization's job is 404 too, never 403).",
  }),
};

const EVENTS_DESCRIPTION =
  'text/event-stream. First `event: snapshot` with the DeletionJob as `data` (JSON), then `event: job.updated` with the whole DeletionJob each time its revision moved (at least once per batch of 100; the `id:` line is the revision). Heartbeat comment lines (`: heartbeat`) every 10 s. The server closes the stream right after the event showing a finished job (completed, cancelled or failed); for a finished job only the snapshot is sent. Errors before the stream opens are the usual JSON errors.';

const EVENT_SCHEMA = {
  type: 'object',
  description:
    'One event (schemathesis and OpenAPI 3.1 read this schema per event): `data` is the DeletionJob as JSON text.',
  required: ['event', 'data'],
  properties: {
    event: { type: 'string', enum: ['snapshot', 'job.updated'] },
    data: { type: 'string', contentMediaType: 'application/json', contentSchema: JOB },
    id: { type: 'string', pattern: '^[0-9]+$' },
    retry: { type: 'integer' },
  },
};

const registries = new WeakMap<QuestionBankDeps, StreamRegistry>();
/** The open job event streams of one dependency set (one app): service.ts closes them at drain. */
export function jobStreams(deps: QuestionBankDeps): StreamRegistry {
  let registry = registries.get(deps);
  if (!registry) {
    registry = new StreamRegistry();
    registries.set(deps, registry);
  }
  return registry;
}

/** One SSE handler per dependency set, on that set's stream registry. */
const streams = new WeakMap<QuestionBankDeps, RequestHandler>();
function jobEvents(deps: QuestionBankDeps): RequestHandler {
  let handler = streams.get(deps);
  if (!handler) {
    const id = (req: { params: unknown }) => (req.params as { id: string }).id;
    handler = sse((stream, req) => streamJob(deps, writerOf(readActor(req)), id(req), stream), {
      registry: jobStreams(deps),
      heartbeatMs: JOB_STREAM_HEARTBEAT_MS,
    });
    streams.set(deps, handler);
  }
  return handler;
}

/** What a job operation by id declares: it answers the writer's job as `run` leaves it. */
interface JobCall {
  method: 'get' | 'post';
  path: string;
  summary: string;
  operationId: string;
  run(deps: QuestionBankDeps, writer: Writer, id: string): Promise<unknown>;
}

/** A job operation by id (the job's snapshot, or its 404 for another writer's job). */
function jobCall(j: JobCall): Route<QuestionBankDeps> {
  return writeRoute({
    method: j.method,
    path: j.path,
    params: jobIdParams,
    doc: {
      summary: j.summary,
      operationId: j.operationId,
      tags: TAGS,
      responses: { 200: okResponse('Success', JOB), ...JOB_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, await j.run(deps, writerOf(readActor(req)), req.valid.params.id));
    },
  });
}

/** Permanent deletion: the impact preview, the synchronous delete, and the jobs (snapshot, events, cancel). */
export const deletionRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  writerCall({
    method: 'post',
    path: '/v1/questions/permanent-delete-impact',
    body: impactBody,
    doc: {
      summary: 'Preview what a permanent delete would touch',
      operationId: 'permanentDeleteImpact',
      tags: TAGS,
      responses: okWith('DeletionImpact', BODY_ERRORS),
    },
    run: permanentDeleteImpact,
  }),
  writerCall({
    method: 'post',
    path: BASE,
    body: permanentDeleteBody,
    doc: {
      summary: "Permanently delete up to 100 questions (any status) in the writer's scope",
      operationId: 'permanentDelete',
      tags: TAGS,
      responses: {
        200: okResponse('Success', ref('schemas', 'DeletionResult')),
        ...BODY_ERRORS,
        ...errorResponses({
          409: 'QUESTION_CONFLICT: a question kept changing under concurrent writes; rows removed before it stay removed (retry is safe).',
        }),
      },
    },
    run: permanentDelete,
  }),
  writeRoute({
    method: 'post',
    path: `${BASE}/jobs`,
    body: jobBody,
    doc: {
      summary: 'Start a permanent-delete job over archived questions',
      operationId: 'createPermanentDeleteJob',
      tags: TAGS,
      responses: {
        202: okWithMessage('Accepted: the job snapshot (status pending)', JOB, 'Permanent-delete job accepted'),
        ...BODY_ERRORS,
      },
    },
    handle: async (req, res, deps) => {
      const body = req.valid.body;
      const job: NewJobInput = body.mode === 'all' ? { mode: 'all' } : { mode: 'ids', ids: body.ids };
      ok(res, await createJob(deps, writerOf(readActor(req)), job), 'Permanent-delete job accepted', 202);
    },
  }),
  jobCall({
    method: 'get',
    path: `${BASE}/jobs/:id`,
    summary: "The job's current snapshot",
    operationId: 'getPermanentDeleteJob',
    run: getJob,
  }),
  jobCall({
    method: 'post',
    path: `${BASE}/jobs/:id/cancel`,
    summary: 'Cancel a pending or running job; a finished job is returned unchanged',
    operationId: 'cancelPermanentDeleteJob',
    run: cancelJob,
  }),
  writeRoute({
    method: 'get',
    path: `${BASE}/jobs/:id/events`,
    params: jobIdParams,
    doc: {
      summary: 'Server-sent events of one job',
      operationId: 'streamPermanentDeleteJob',
      tags: TAGS,
      responses: {
        200: { description: EVENTS_DESCRIPTION, content: { 'text/event-stream': { schema: EVENT_SCHEMA } } },
        ...JOB_ERRORS,
      },
    },
    handle: (req, res, deps, next) => jobEvents(deps)(req, res, next),
  }),
];
