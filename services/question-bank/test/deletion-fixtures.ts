// Test data for the permanent-deletion tests: archived questions written straight into MongoDB in
// the shapes the service writes (rows.ts builds them), far faster than the API for big jobs.
import type { Db } from 'mongodb';
import { timeOrderedIds } from '../../kit/src/core/index.js';
import { newQuestionRow, versionOf } from '../src/domain/questions/rows.js';
import type { Writer } from '../src/domain/questions/scope.js';

export const writer = (userId = 't1', organizationId = 'org-a', role: Writer['role'] = 'TEACHER'): Writer => ({
  userId,
  organizationId,
  role,
});

const newId = timeOrderedIds();

/** `count` questions with `status` for `w`, with their versions; returns their ids in creation order. */
export async function seedQuestions(db: Db, w: Writer, count: number, status = 'ARCHIVED'): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count;) {
    const n = Math.min(500, count - done);
    const now = new Date();
    const rows = Array.from({ length: n }, (_, k) =>
      newQuestionRow({ content: `Câu ${done + k}: 1 + 1 = ?`, status: status as never }, w, { newId, now }),
    );
    await db.collection('question_versions').insertMany(rows.map((r) => versionOf(r, w, now)) as never[]);
    await db.collection('questions').insertMany(rows as never[]);
    ids.push(...rows.map((r) => r._id));
    done += n;
  }
  return ids;
}

export const liveCount = (db: Db, ids: string[]) =>
  db.collection('questions').countDocuments({ _id: { $in: ids }, removedAt: null } as never);

/** Polls `read` until `done` holds or the deadline passes; returns the last value read. */
export async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface SseEvent {
  event: string;
  id?: string;
  data: Record<string, unknown>;
}

/** Reads a whole event stream until the server closes it (or the deadline): its events and comments. */
export async function readStream(url: string, head: Record<string, string>, ms = 120_000) {
  const res = await fetch(url, { headers: head, signal: AbortSignal.timeout(ms) });
  const text = await res.text();
  const events: SseEvent[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n').filter((b) => b.trim() !== '')) {
    const lines = block.split('\n');
    const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
    if (lines.every((l) => l.startsWith(':'))) comments.push(block);
    else if (field('event'))
      events.push({ event: field('event')!, id: field('id'), data: JSON.parse(field('data') ?? 'null') });
  }
  return { status: res.status, contentType: res.headers.get('content-type'), events, comments, text };
}
