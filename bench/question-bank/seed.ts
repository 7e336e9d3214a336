// Seeds the benchmark's data: refs every hydrated row points at, a few hundred questions through
// the API (so rows and versions have the service's exact shape), then copies of them through the
// driver up to the target count (new ids, older createdAt), which is far faster than the API.
import type { Db } from 'mongodb';
import { timeOrderedIds } from '../../services/kit/src/core/index.js';

export const ORG = 'org-bench';
export const TEACHER = 't-bench';
export const HEADERS = {
  'content-type': 'application/json',
  'X-User-Id': TEACHER,
  'X-User-Role': 'TEACHER',
  'X-Organization-Id': ORG,
};
const REFS = 10;

type Doc = Record<string, unknown> & { _id: string };

export function questionBody(i: number): Record<string, unknown> {
  return {
    content: `Câu ${i}: giải phương trình x + ${i} = ${i + 1}`,
    options: [{ content: 'x = 1', isCorrect: true }, { content: `x = ${i}` }, { content: 'Vô nghiệm' }],
    tags: [`Chủ đề ${i % 7}`, 'Đại số'],
    subjectId: `subject-${i % REFS}`,
    chapterId: `chapter-${i % REFS}`,
    topicId: `topic-${i % REFS}`,
  };
}

async function seedRefs(db: Db): Promise<void> {
  const taxonomy = ['SUBJECT', 'CHAPTER', 'TOPIC'].flatMap((kind) =>
    Array.from({ length: REFS }, (_, i) => {
      const prefix = kind.toLowerCase();
      const base = { kind, code: `${prefix}-${i}`, name: `${kind} ${i}`, organizationId: ORG, status: 'ACTIVE' };
      return { _id: `${prefix}-${i}`, ...base, numericLevel: null, engineDifficulty: null, searchText: '' };
    }),
  );
  await db.collection<Doc>('taxonomy_refs').insertMany(taxonomy);
  await db.collection<Doc>('user_refs').insertOne({
    _id: TEACHER,
    fullName: 'Giáo viên Bench',
    email: 'bench@bench.vn',
    organizationId: ORG,
  });
  await db
    .collection<Doc>('organization_refs')
    .insertOne({ _id: ORG, name: 'Bench', slug: 'bench', organizationId: ORG });
}

async function createThroughApi(base: string, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < count; i = next++) {
        const res = await fetch(`${base}/v1/questions`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify(questionBody(i)),
        });
        if (res.status !== 201) throw new Error(`seed create: ${res.status} ${await res.text()}`);
      }
    }),
  );
}

async function copyRows(db: Db, count: number): Promise<void> {
  const questions = db.collection<Doc>('questions');
  const versions = db.collection<Doc>('question_versions');
  const templates = await questions.find({ organizationId: ORG }).toArray();
  const byId = new Map((await versions.find({}).toArray()).map((v) => [v._id, v]));
  const newId = timeOrderedIds();
  const oldest = Math.min(...templates.map((t) => (t.createdAt as Date).getTime()));
  for (let done = 0; done < count;) {
    const n = Math.min(1000, count - done);
    const qs: Doc[] = [];
    const vs: Doc[] = [];
    for (let k = 0; k < n; k += 1) {
      const t = templates[(done + k) % templates.length]!;
      const { _outbox: _o, ...rest } = t;
      const id = newId();
      const vid = newId();
      const createdAt = new Date(oldest - (done + k + 1) * 1000);
      qs.push({ ...rest, _id: id, currentVersionId: vid, createdAt, updatedAt: createdAt, searchVersion: 1 });
      vs.push({ ...byId.get(t.currentVersionId as string)!, _id: vid, questionId: id, createdAt });
    }
    await versions.insertMany(vs);
    await questions.insertMany(qs);
    done += n;
  }
}

/** Every third question gets a usage row, so `_count` is a mix of real and placeholder rows. */
async function seedUsage(db: Db): Promise<void> {
  const ids = await db
    .collection<Doc>('questions')
    .find({}, { projection: { _id: 1 } })
    .toArray();
  const rows = ids
    .filter((_, i) => i % 3 === 0)
    .map((r) => ({ _id: r._id, organizationId: ORG, examItems: 2, attemptItems: 5, answers: 9 }));
  for (let i = 0; i < rows.length; i += 1000)
    await db.collection<Doc>('usage_counts').insertMany(rows.slice(i, i + 1000));
}

export async function seed(db: Db, base: string, total: number, throughApi: number): Promise<string[]> {
  await seedRefs(db);
  await createThroughApi(base, throughApi);
  await copyRows(db, total - throughApi);
  await seedUsage(db);
  const ids = await db
    .collection<Doc>('questions')
    .find({}, { projection: { _id: 1 } })
    .toArray();
  return ids.map((r) => r._id);
}
