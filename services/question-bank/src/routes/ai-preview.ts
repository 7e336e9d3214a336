import { readActor } from '../../../kit/src/core/index.js';
import { errorResponses, ok, ref, type Route } from '../../../kit/src/http/index.js';
import { createAiPreviewDraft } from '../domain/ai-preview/drafts.js';
import { applyAiPreviewSolution } from '../domain/ai-preview/solutions.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { getQuestion } from '../domain/questions/read.js';
import { writerOf } from '../domain/questions/scope.js';
import { aiPreviewDraftBody, aiPreviewSolutionBody } from '../schemas/ai-preview.js';
import { okWithMessage, standardErrors } from './docs.js';
import { writeRoute } from './declare.js';

const QUESTION = ref('schemas', 'Question');
const TAGS = ['AI preview'];

const TEXT = {
  draftCreated: 'AI preview draft created',
  draftReplayed: 'AI preview draft already created',
  solutionApplied: 'AI preview solution applied',
  solutionReplayed: 'AI preview solution already applied',
} as const;

/** Saving a reviewed AI preview as a draft, and applying a reviewed AI solution. */
export const aiPreviewRoutes: ReadonlyArray<Route<QuestionBankDeps>> = [
  writeRoute({
    method: 'post',
    path: '/v1/questions/ai-preview-drafts',
    body: aiPreviewDraftBody,
    doc: {
      summary:
        'Save a teacher-reviewed AI preview as a DRAFT question (idempotent per organization, actor and previewId)',
      operationId: 'createAiPreviewDraft',
      description:
        "Issue 20: groupId, folderId, customTypeId and taxonomy ids must be the organization's (404 as for POST /v1/questions).",
      tags: TAGS,
      responses: {
        200: okWithMessage(
          'Replay: the same reviewed payload; the original draft as it is now (it may since have been edited or archived)',
          QUESTION,
          TEXT.draftReplayed,
        ),
        201: okWithMessage('A new draft (hydrated question, as GET /v1/questions/{id})', QUESTION, TEXT.draftCreated),
        ...standardErrors(401, 403, 413, 415, 500, 503),
        ...errorResponses({
          400: 'VALIDATION_ERROR (as POST /v1/questions, plus previewId and provenance), or AI_PREVIEW_CONFLICT: this actor already used the previewId in this organization with another reviewed payload (details: previewId, questionId).',
          404: "FOLDER_NOT_FOUND: `folderId` is not visible in the writer's scope. Nothing is written.",
          409: "QUESTION_CONFLICT: the previewId's record kept changing under concurrent writers; retry.",
        }),
      },
    },
    handle: async (req, res, deps) => {
      const actor = readActor(req);
      const r = await createAiPreviewDraft(deps, writerOf(actor), req.valid.body);
      const question = await getQuestion(deps, actor, r.questionId, {});
      ok(res, question, r.created ? TEXT.draftCreated : TEXT.draftReplayed, r.created ? 201 : 200);
    },
  }),
  writeRoute({
    method: 'post',
    path: '/v1/questions/ai-preview-solutions',
    body: aiPreviewSolutionBody,
    doc: {
      summary:
        'Apply a teacher-reviewed AI solution to a question: appends a version, moves currentVersionId, never publishes',
      operationId: 'applyAiPreviewSolution',
      tags: TAGS,
      responses: {
        200: okWithMessage(
          'Applied (`AI preview solution applied`) or a replay of the same preview (`AI preview solution already applied`, nothing written); the hydrated question as it is now',
          QUESTION,
          [TEXT.solutionApplied, TEXT.solutionReplayed],
        ),
        ...standardErrors(401, 403, 413, 415, 500, 503),
        ...errorResponses({
          400: 'VALIDATION_ERROR (including options or sub-items the question lacks), or AI_PREVIEW_CONFLICT: this actor already used the previewId in this organization for another question, provider, model or solution (details: previewId, questionId).',
          404: "QUESTION_NOT_FOUND: the question is missing, removed, in another organization, or (for a TEACHER) another teacher's; checked before anything is written, exactly like PATCH /v1/questions/{id}.",
          409: "QUESTION_PUBLISH_CONFLICT: the solution would break a PUBLISHED question's base type; QUESTION_CONFLICT: the question kept changing under concurrent writers, retry.",
        }),
      },
    },
    handle: async (req, res, deps) => {
      const actor = readActor(req);
      const r = await applyAiPreviewSolution(deps, writerOf(actor), req.valid.body);
      const question = await getQuestion(deps, actor, r.questionId, {});
      ok(res, question, r.replayed ? TEXT.solutionReplayed : TEXT.solutionApplied);
    },
  }),
];
