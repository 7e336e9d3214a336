import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import Joi from 'joi';
import type { Connection, Model } from 'mongoose';
import { AppError, readActor } from '../../../kit/src/core/index.js';
import {
  errorResponse,
  idempotencyKey,
  named,
  ok,
  okResponse,
  ref,
  routes,
  type JsonObject,
  type Route,
} from '../../../kit/src/http/index.js';
import { header } from '../documents/doc.js';
import { examView, type ExamRow } from './models.js';

/** What the exam peer's handlers get: its exams and the connection its idempotency records use. */
export interface ExamDeps {
  Exam: Model<ExamRow>;
  conn: Connection;
}

/** Any value, kept as given (a `Joi.any()` member). */
type Anything = NonNullable<unknown> | null;

type CreateBody = Pick<ExamRow, 'title' | 'subjectId' | 'gradeLevel' | 'durationMinutes'>;
type OptionSnapshot = { id: string; label?: string | null; content?: string };
type QuestionSnapshot = {
  questionId: string;
  questionVersionId?: string | null;
  examQuestionId?: string | null;
  orderIndex: number;
  score: number;
  type: string;
  content: string;
  contentText?: string;
  options: OptionSnapshot[];
  optionOrder?: string[];
  correctAnswer?: Anything;
  scoringRule: { mode: string; maxScore: number };
};

const id = Joi.string().max(128);
const createBody = Joi.object<CreateBody, true>({
  title: Joi.string().trim().min(1).max(300).required(),
  subjectId: id,
  gradeLevel: Joi.number().integer().min(1).max(12),
  durationMinutes: Joi.number().integer().min(1).max(1440).default(45),
});
const option = Joi.object<OptionSnapshot, true>({
  id: id.required(),
  label: Joi.string().max(8).allow(null),
  content: Joi.string().allow('').max(20000),
});
const snapshot = named(
  'QuestionSnapshot',
  Joi.object<QuestionSnapshot, true>({
    questionId: id.required(),
    questionVersionId: id.allow(null),
    examQuestionId: id.allow(null),
    orderIndex: Joi.number().integer().min(0).required(),
    score: Joi.number().min(0).max(1000).required(),
    type: Joi.string().max(64).required(),
    content: Joi.string().allow('').max(100000).required(),
    contentText: Joi.string().allow('').max(100000),
    options: Joi.array().items(option).max(26).default([]),
    optionOrder: Joi.array().items(id).max(26),
    correctAnswer: Joi.any(),
    scoringRule: Joi.object<QuestionSnapshot['scoringRule'], true>({
      mode: Joi.string().max(64).required(),
      maxScore: Joi.number().min(0).required(),
    }).required(),
  }).unknown(true),
);
const snapshotsBody = Joi.object<{ snapshots: QuestionSnapshot[] }, true>({
  snapshots: Joi.array().items(snapshot).max(1000).required(),
});
const examParams = Joi.object<{ examId: string }, true>({ examId: id.required() });

function organizationOf(req: Request): string {
  const org = readActor(req).organizationId;
  if (!org) throw new AppError('VALIDATION_ERROR', 'X-Organization-Id header is required');
  return org;
}

async function findExam(Exam: Model<ExamRow>, examId: string, organizationId: string): Promise<ExamRow> {
  const row = await Exam.findById(examId).lean();
  if (!row || row.organizationId !== organizationId) throw new AppError('EXAM_NOT_FOUND', 'Exam not found');
  return row;
}

// A retried create with the same key answers the first exam (the import service's approval retries).
const once = ({ conn }: ExamDeps): RequestHandler[] => [
  idempotencyKey({
    conn,
    scope: (req) => `${readActor(req).organizationId ?? ''}:${readActor(req).userId ?? ''}`,
    ttlMs: 24 * 60 * 60 * 1000,
  }),
];

const route = routes<ExamDeps>();
const ORGANIZATION = header('X-Organization-Id', true);
const EXAM = ref('schemas', 'Exam');
const VALIDATION: JsonObject = { 400: errorResponse('validation') };

const SNAPSHOTS_STORED = okResponse('stored', {
  type: 'object',
  properties: {
    examId: { type: 'string' },
    count: { type: 'integer' },
    snapshots: { type: 'array', items: ref('schemas', 'QuestionSnapshot') },
  },
});

/** The exam service's routes, declared once: validation, handler types and the document come from here. */
export const examRoutes: ReadonlyArray<Route<ExamDeps>> = [
  route({
    method: 'post',
    path: '/v1/exams',
    body: createBody,
    // Before validation: a refused body (400) releases its key, as it did after validation.
    before: once,
    doc: {
      summary:
        'Create a draft exam; Idempotency-Key (per organization and user, 24 h) answers a retry with the first exam',
      parameters: [ORGANIZATION, header('X-User-Id', false), header('Idempotency-Key')],
      responses: { 201: okResponse('created (status DRAFT)', EXAM), ...VALIDATION },
    },
    handle: async (req, res, { Exam }) => {
      const organizationId = organizationOf(req);
      const row = await Exam.create({
        ...req.valid.body,
        _id: randomUUID(),
        organizationId,
        createdBy: readActor(req).userId,
        status: 'DRAFT',
        questionSnapshots: [],
        createdAt: new Date(),
      });
      ok(res, examView(row.toObject()), 'OK', 201);
    },
  }),
  route({
    method: 'put',
    path: '/v1/exams/:examId/question-snapshots',
    params: examParams,
    body: snapshotsBody,
    doc: {
      summary: "Replace the exam's question snapshots (idempotent)",
      parameters: [ORGANIZATION],
      responses: {
        200: SNAPSHOTS_STORED,
        ...VALIDATION,
        404: errorResponse('no such exam in this organization'),
      },
    },
    handle: async (req, res, { Exam }) => {
      const exam = await findExam(Exam, req.valid.params.examId, organizationOf(req));
      const snapshots = req.valid.body.snapshots;
      const updated = await Exam.findByIdAndUpdate(
        exam._id,
        { $set: { questionSnapshots: snapshots, snapshotsUpdatedAt: new Date() } },
        { new: true },
      ).lean();
      ok(res, { examId: exam._id, count: snapshots.length, snapshots: updated?.questionSnapshots ?? snapshots });
    },
  }),
  route({
    method: 'get',
    path: '/v1/exams/:examId',
    params: examParams,
    doc: {
      summary: 'The exam with its snapshots (tests)',
      parameters: [ORGANIZATION],
      responses: { 200: okResponse('exam', EXAM), 404: errorResponse('not found') },
    },
    handle: async (req, res, { Exam }) => {
      ok(res, examView(await findExam(Exam, req.valid.params.examId, organizationOf(req))));
    },
  }),
];
