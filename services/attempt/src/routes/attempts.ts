import { Router, type Request } from 'express';
import { input, ok, onlyMethods, readActor, requireRole, validate } from '../../../kit/src/index.js';
import { assertOwner, assertReadable } from '../domain/access.js';
import { saveAnswer, type SaveInput } from '../domain/answers.js';
import type { AttemptDeps } from '../domain/deps.js';
import { listEvents, postEvent, type ClientEventInput } from '../domain/events.js';
import { startAttempt } from '../domain/start.js';
import type { StartInput } from '../domain/start-input.js';
import { submitAttempt } from '../domain/submit.js';
import { attemptView, resultView } from '../domain/view.js';
import { answerBody, attemptIdParams, eventBody, submitBody, type EventBody } from '../schemas/attempts.js';
import { examIdParams, startBody } from '../schemas/start.js';

const START_PATHS = ['/v1/exams/:examId/attempts', '/v1/exams/:examId/start'];
const id = (req: Request) => input<{ attemptId: string }>(req, 'params').attemptId;

type RawAnswer = Omit<SaveInput, 'body'> & Record<string, unknown>;

const saveInput = (body: RawAnswer): SaveInput => ({ ...body, body });

export function attemptRoutes(deps: AttemptDeps): Router {
  const router = Router();
  const student = requireRole('STUDENT');
  const reader = requireRole('STUDENT', 'TEACHER', 'ADMIN');
  const view = (req: Request, doc: Parameters<typeof attemptView>[0]) => attemptView(doc, readActor(req), deps.clock());

  router.post(START_PATHS, student, validate({ params: examIdParams, body: startBody }), async (req, res) => {
    const examId = input<{ examId: string }>(req, 'params').examId;
    const result = await startAttempt(deps, readActor(req), examId, input<StartInput>(req, 'body'));
    ok(res, { attempt: view(req, result.attempt), created: result.created }, 'OK', result.created ? 201 : 200);
  });
  router.get('/v1/attempts/:attemptId', reader, validate({ params: attemptIdParams }), async (req, res) => {
    ok(res, view(req, assertReadable(readActor(req), await deps.store.byId(id(req)))));
  });
  router.post(
    '/v1/attempts/:attemptId/answers',
    student,
    validate({ params: attemptIdParams, body: answerBody }),
    async (req, res) => {
      const saved = await saveAnswer(deps, readActor(req), id(req), saveInput(input<RawAnswer>(req, 'body')));
      ok(res, view(req, saved));
    },
  );
  router.post(
    '/v1/attempts/:attemptId/submit',
    student,
    validate({ params: attemptIdParams, body: submitBody }),
    async (req, res) => {
      const actor = readActor(req);
      assertOwner(actor, await deps.store.byId(id(req)));
      ok(res, view(req, await submitAttempt(deps, id(req), { source: 'STUDENT', by: actor.userId! })));
    },
  );
  router.post(
    '/v1/attempts/:attemptId/events',
    student,
    validate({ params: attemptIdParams, body: eventBody }),
    async (req, res) => {
      const { type, question, metadata } = input<EventBody>(req, 'body');
      const event: ClientEventInput = { type, questionId: question?.id, metadata };
      const posted = await postEvent(deps, readActor(req), id(req), event);
      if (posted.kind === 'graded') ok(res, view(req, posted.attempt));
      else ok(res, posted.event, 'OK', 201);
    },
  );
  router.get('/v1/attempts/:attemptId/events', reader, validate({ params: attemptIdParams }), async (req, res) => {
    ok(res, await listEvents(deps, readActor(req), id(req)));
  });
  router.get('/v1/attempts/:attemptId/result', reader, validate({ params: attemptIdParams }), async (req, res) => {
    const doc = assertReadable(readActor(req), await deps.store.byId(id(req)));
    ok(res, resultView(doc, readActor(req), deps.clock()));
  });
  for (const path of START_PATHS) onlyMethods(router, path, ['POST']);
  onlyMethods(router, '/v1/attempts/:attemptId', ['GET']);
  onlyMethods(router, '/v1/attempts/:attemptId/answers', ['POST']);
  onlyMethods(router, '/v1/attempts/:attemptId/submit', ['POST']);
  onlyMethods(router, '/v1/attempts/:attemptId/events', ['GET', 'POST']);
  onlyMethods(router, '/v1/attempts/:attemptId/result', ['GET']);
  return router;
}
