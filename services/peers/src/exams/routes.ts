import { randomUUID } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import Joi from 'joi';
import type { Connection, Model } from 'mongoose';
import { AppError, idempotencyKey, ok, readActor, validate } from '../../../kit/src/index.js';
import { examView, type ExamRow } from './models.js';

const id = Joi.string().max(128);
const createBody = Joi.object({
  title: Joi.string().trim().min(1).max(300).required(),
  subjectId: id,
  gradeLevel: Joi.number().integer().min(1).max(12),
  durationMinutes: Joi.number().integer().min(1).max(1440).default(45),
});
const option = Joi.object({
  id: id.required(),
  label: Joi.string().max(8).allow(null),
  content: Joi.string().allow('').max(20000),
});
const snapshot = Joi.object({
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
  scoringRule: Joi.object({
    mode: Joi.string().max(64).required(),
    maxScore: Joi.number().min(0).required(),
  }).required(),
}).unknown(true);
const snapshotsBody = Joi.object({ snapshots: Joi.array().items(snapshot).max(1000).required() });
const examParams = Joi.object({ examId: id.required() });

function wrap(handler: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    handler(req, res).catch(next);
  };
}

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

export function examRoutes(Exam: Model<ExamRow>, conn: Connection): Router {
  const r = Router();
  // A retried create with the same key answers the first exam (the import service's approval retries).
  const once = idempotencyKey({
    conn,
    scope: (req) => `${readActor(req).organizationId ?? ''}:${readActor(req).userId ?? ''}`,
    ttlMs: 24 * 60 * 60 * 1000,
  });
  r.post(
    '/v1/exams',
    validate({ body: createBody }),
    once,
    wrap(async (req, res) => {
      const organizationId = organizationOf(req);
      const body = req.valid!.body as Pick<ExamRow, 'title' | 'subjectId' | 'gradeLevel' | 'durationMinutes'>;
      const row = await Exam.create({
        ...body,
        _id: randomUUID(),
        organizationId,
        createdBy: readActor(req).userId,
        status: 'DRAFT',
        questionSnapshots: [],
        createdAt: new Date(),
      });
      ok(res, examView(row.toObject()), 'OK', 201);
    }),
  );
  r.put(
    '/v1/exams/:examId/question-snapshots',
    validate({ params: examParams, body: snapshotsBody }),
    wrap(async (req, res) => {
      const exam = await findExam(Exam, req.valid!.params.examId as string, organizationOf(req));
      const snapshots = req.valid!.body.snapshots as Record<string, unknown>[];
      const updated = await Exam.findByIdAndUpdate(
        exam._id,
        { $set: { questionSnapshots: snapshots, snapshotsUpdatedAt: new Date() } },
        { new: true },
      ).lean();
      ok(res, { examId: exam._id, count: snapshots.length, snapshots: updated?.questionSnapshots ?? snapshots });
    }),
  );
  r.get(
    '/v1/exams/:examId',
    validate({ params: examParams }),
    wrap(async (req, res) => {
      ok(res, examView(await findExam(Exam, req.valid!.params.examId as string, organizationOf(req))));
    }),
  );
  return r;
}
