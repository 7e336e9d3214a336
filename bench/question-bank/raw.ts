// The baseline: the service's list and detail reads done with the bare `mongodb` driver, the same
// filter, sort, skip/limit, projection, count and hydration lookups, on the same server. What it
// leaves out is the service itself (HTTP, validation, scope, mongoose, shaping, JSON).
import type { Db, Document } from 'mongodb';
import { ORG, TEACHER } from './seed.js';

type Doc = Document & { _id: string };

const SCOPE = { removedAt: null, organizationId: ORG, createdById: TEACHER };
const LIST_FILTER = { ...SCOPE, status: { $ne: 'ARCHIVED' } };
const HIDDEN = { projection: { searchTokens: 0, _outbox: 0, _outboxClaim: 0 } };
const REF_FIELDS = ['subjectId', 'chapterId', 'topicId'];

const distinct = (values: unknown[]) => [...new Set(values.filter((v): v is string => typeof v === 'string'))];

async function byIds(db: Db, collection: string, ids: string[]): Promise<Doc[]> {
  return ids.length === 0
    ? []
    : db
        .collection<Doc>(collection)
        .find({ _id: { $in: ids } })
        .toArray();
}

async function hydrate(db: Db, rows: Doc[]): Promise<number> {
  const versions = await byIds(db, 'question_versions', distinct(rows.map((r) => r.currentVersionId)));
  const loaded = await Promise.all([
    byIds(db, 'taxonomy_refs', distinct(rows.flatMap((r) => REF_FIELDS.map((f) => r[f])))),
    byIds(db, 'usage_counts', distinct(rows.map((r) => r._id))),
    byIds(db, 'user_refs', distinct(rows.map((r) => r.createdById))),
    byIds(db, 'organization_refs', distinct(rows.map((r) => r.organizationId))),
  ]);
  return versions.length + loaded.reduce((n, l) => n + l.length, 0);
}

export async function rawList(db: Db, page: number, limit: number): Promise<boolean> {
  const questions = db.collection<Doc>('questions');
  const [rows, total] = await Promise.all([
    questions
      .find(LIST_FILTER, HIDDEN)
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .toArray(),
    questions.countDocuments(LIST_FILTER),
  ]);
  await hydrate(db, rows);
  return rows.length === limit && total > 0;
}

export async function rawDetail(db: Db, id: string): Promise<boolean> {
  const row = await db.collection<Doc>('questions').findOne({ ...SCOPE, _id: id }, HIDDEN);
  if (!row) return false;
  await hydrate(db, [row]);
  return true;
}
