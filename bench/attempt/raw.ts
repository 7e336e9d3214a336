// The baseline: the service's answer write done with the bare `mongodb` driver, nothing around it
// (no HTTP, no read before the write, no view). The same conditional single-document update as
// services/attempt/src/domain/answers.ts: this answer's serverVersion, the status, the deadline
// in the filter; the answer row set at its index, `rev`/`eventCount` incremented, the SAVE_ANSWER
// event pushed. Each client writes one student's answers one after the other, as in the surge.
import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { pool } from './api.js';
import { answerFields, questionId, QUESTIONS } from './exam.js';

interface Target {
  _id: string;
  status: string;
  studentId: string;
  answers: Array<{ serverVersion: number }>;
}

export interface RawResult {
  updates: number;
  errors: number;
  ms: number;
  latencies: number[];
}

async function saveOne(col: Collection<Target>, doc: Target, i: number, seed: number): Promise<boolean> {
  const now = new Date();
  const stored = doc.answers[i]!.serverVersion;
  const row = {
    questionId: questionId(i),
    ...answerFields(i, seed),
    clientVersion: stored,
    serverVersion: stored + 1,
    sourceTabId: 'tab-1',
    savedAt: now,
    isCorrect: null,
    score: null,
  };
  const meta = {
    questionId: row.questionId,
    serverVersion: row.serverVersion,
    clientVersion: stored,
    sourceTabId: 'tab-1',
  };
  const event = { id: randomUUID(), type: 'SAVE_ANSWER', createdAt: now, metadata: meta };
  const res = await col.updateOne(
    {
      _id: doc._id,
      status: doc.status,
      [`answers.${i}.serverVersion`]: stored,
      $or: [{ deadlineAt: null }, { deadlineAt: { $gt: now } }],
    },
    { $set: { [`answers.${i}`]: row, updatedAt: now }, $inc: { rev: 1, eventCount: 1 }, $push: { events: event } },
  );
  doc.answers[i]!.serverVersion = stored + 1;
  return res.modifiedCount === 1;
}

/** `saves` updates into each of `ids` (answer k goes to question k mod 40), `clients` students at a time. */
export async function rawSaves(db: Db, ids: string[], saves: number, clients: number): Promise<RawResult> {
  const col = db.collection<Target>('attempts');
  // The current versions are read first (not timed): the filter must match as the service's does.
  const docs = await col
    .find({ _id: { $in: ids } }, { projection: { _id: 1, status: 1, studentId: 1, 'answers.serverVersion': 1 } })
    .toArray();
  if (docs.length !== ids.length) throw new Error(`bench: ${docs.length} of ${ids.length} attempts found`);
  const latencies: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  await pool(docs.length, clients, async (s) => {
    for (let k = 0; k < saves; k++) {
      const t = performance.now();
      const ok = await saveOne(col, docs[s]!, k % QUESTIONS, s + k + 1);
      if (ok) latencies.push(performance.now() - t);
      else errors += 1;
    }
  });
  return { updates: latencies.length, errors, ms: performance.now() - t0, latencies };
}
