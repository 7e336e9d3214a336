import { TOPICS } from '../../../../kafka/topics.js';
import { AppError } from '../../../kit/src/core/index.js';
import { CODES, MSG } from '../messages.js';
import type { AttemptDoc } from '../store/attempt-store.js';
import type { AnswerRow, SubmissionSource } from '../store/models.js';
import type { AttemptDeps } from './deps.js';
import { gradedEvent, type GradedFields } from './graded-event.js';
import { gradeSnapshots } from './grading.js';

export interface SubmitOptions {
  source: SubmissionSource;
  /** The submitting student, or `SYSTEM` for a timeout the service itself detected. */
  by: string;
}

// Each lost race means another write landed in between; this many in a row is not contention
// any client can cause within one request.
const MAX_ROUNDS = 200;

/** Who submitted a timeout the service detected itself (the sweeper, a late save or start). */
export const SYSTEM = 'SYSTEM';

/** Time spent, capped at the deadline: a sweep minutes later does not add to it. */
function durationOf(doc: AttemptDoc, submittedAt: Date): number {
  const end = doc.deadlineAt && doc.deadlineAt < submittedAt ? doc.deadlineAt : submittedAt;
  return Math.max(0, Math.floor((end.getTime() - doc.startedAt.getTime()) / 1000));
}

function graded(doc: AttemptDoc, now: Date, source: SubmissionSource) {
  const result = gradeSnapshots(doc.questions, doc.answers);
  const answers: AnswerRow[] = doc.answers.map((a, i) => ({
    ...a,
    isCorrect: result.answers[i]!.isCorrect,
    score: result.answers[i]!.score,
  }));
  const fields: GradedFields = {
    submittedAt: now,
    submissionSource: source,
    durationSeconds: durationOf(doc, now),
    totalScore: result.totalScore,
    correctCount: result.correctCount,
    wrongCount: result.wrongCount,
    wrong: result.answers.map((a) => a.wrong),
  };
  return { answers, fields };
}

/**
 * Grades from the copied snapshots and flips IN_PROGRESS to GRADED in one conditional write on
 * the `rev` it graded, with the SUBMIT or TIMEOUT event and the attempt.graded.v1 outbox stamp in
 * the same update: a save that lands first makes the flip miss and the attempt is graded again;
 * a save after the flip finds the attempt locked. Once GRADED it returns the attempt as it is.
 */
export async function submitAttempt(deps: AttemptDeps, attemptId: string, opts: SubmitOptions): Promise<AttemptDoc> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const doc = await deps.store.byId(attemptId);
    if (!doc) throw new AppError(CODES.notFound, MSG.notFound);
    if (doc.status === 'GRADED') return doc;
    const now = deps.clock();
    const { answers, fields } = graded(doc, now, opts.source);
    const { wrong: _wrong, ...stored } = fields;
    const event = {
      id: deps.newId(),
      type: opts.source === 'TIMEOUT' ? 'TIMEOUT' : 'SUBMIT',
      createdAt: now,
      metadata: {},
    };
    const flipped = await deps.outbox.transaction(async (unit, session) => {
      const stamp = unit.enqueue({
        topic: TOPICS.attemptGraded,
        event: gradedEvent(doc, fields, `${doc._id}.graded`),
        owner: deps.models.Attempt,
        ownerId: doc._id,
      });
      const set = {
        ...stored,
        status: 'GRADED' as const,
        activeKey: doc._id,
        submittedBy: opts.by,
        answers,
        updatedAt: now,
      };
      return deps.store.casUpdate(
        { _id: doc._id, status: 'IN_PROGRESS', rev: doc.rev },
        { $set: set, $inc: { rev: 1, eventCount: 1 }, $push: { events: event, ...stamp.update.$push } as never },
        session,
      );
    });
    if (flipped) return flipped;
  }
  throw new AppError(CODES.busy, MSG.busy);
}
