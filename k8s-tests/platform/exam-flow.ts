// The platform's exam flow, driven over HTTP only (base URLs and headers, nothing in-process), so
// the same driver runs against local processes and against the Services of a real node:
// auth (a teacher and a student register and log in) → question bank (a question written by hand)
// → document import (a DOCX uploaded, parsed by a worker, approved into the bank) → the bank
// (publish, blueprint selection) → attempt (start with the selected snapshots, answer some right
// and some wrong, submit, read the result). Every answer is checked; anything unexpected throws an
// Error naming the step and showing the body (tokens and passwords redacted).
import { randomUUID } from 'node:crypto';
import { sampleExamDocx, type ExamDocx } from './docx.js';

export interface PlatformUrls {
  auth: string;
  questionBank: string;
  documentImport: string;
  attempt: string;
}

export interface ExamFlowOptions {
  /** X-Organization-Id of every scoped call; default: the organization auth gave the teacher. */
  organizationId?: string;
  /** Sent as X-Internal-Token on every call (the chart sets INTERNAL_API_TOKEN on every service). */
  internalToken?: string;
  /** Extra headers on every call (a Host for an ingress, a tracing header). */
  headers?: Record<string, string>;
  log?: (line: string) => void;
  /** The upload; default: sampleExamDocx(6). */
  docx?: ExamDocx;
  /** Bound of each wait for an asynchronous outcome (the import job). Default 120 s. */
  waitTimeoutMs?: number;
  /** Bound of each request. Default 30 s. */
  requestTimeoutMs?: number;
}

export interface ExamFlowSummary {
  organizationId: string;
  teacher: { id: string; email: string };
  student: { id: string; email: string };
  directQuestionId: string;
  importJobId: string;
  importedQuestionIds: string[];
  examId: string;
  /** The blueprint's selection, in exam order. */
  examQuestionIds: string[];
  attemptId: string;
  answered: { right: number; wrong: number; blank: number };
  expectedScore: number;
  totalScore: number;
  maxScore: number;
  scorePercent: number;
  /** Milliseconds per phase. */
  timings: Record<string, number>;
}

type Json = Record<string, unknown>;
interface Actor {
  userId: string;
  role: 'TEACHER' | 'STUDENT';
  organizationId: string;
}
interface Call {
  step: string;
  method?: 'GET' | 'POST' | 'PATCH';
  path: string;
  actor?: Actor;
  json?: unknown;
  form?: FormData;
  bearer?: string;
  expect: number;
}

const SECRET_KEYS = new Set(['accessToken', 'refreshToken', 'password']);

/** A body for an error message: secrets redacted, cut to 4,000 characters. */
export function shown(body: unknown): string {
  const text = JSON.stringify(body, (k, v: unknown) => (SECRET_KEYS.has(k) ? '[redacted]' : v)) ?? String(body);
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}

function fail(step: string, what: string, body: unknown): never {
  throw new Error(`exam flow, ${step}: ${what}; body: ${shown(body)}`);
}

const at = (body: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Json)[k] : undefined), body);

function text(step: string, body: unknown, path: string): string {
  const v = at(body, path);
  if (typeof v !== 'string' || v === '') fail(step, `${path} is not a non-empty string`, body);
  return v;
}

function num(step: string, body: unknown, path: string): number {
  const v = at(body, path);
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(step, `${path} is not a number`, body);
  return v;
}

function objects(step: string, body: unknown, path: string): Json[] {
  const v = at(body, path);
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'object' || x === null))
    fail(step, `${path} is not a list`, body);
  return v as Json[];
}

function expectEqual(step: string, body: unknown, path: string, expected: unknown): void {
  const v = at(body, path);
  if (JSON.stringify(v) !== JSON.stringify(expected))
    fail(step, `${path} is ${JSON.stringify(v)}, expected ${JSON.stringify(expected)}`, body);
}

function sameSet(step: string, got: string[], want: string[], body: unknown): void {
  const a = [...got].sort().join();
  if (a !== [...want].sort().join() || new Set(got).size !== got.length)
    fail(step, `ids ${JSON.stringify(got)} are not exactly ${JSON.stringify(want)}`, body);
}

/** The calls of one run: base URLs, the common headers, a timeout per request. */
class Platform {
  constructor(
    private readonly urls: PlatformUrls,
    private readonly opts: ExamFlowOptions,
  ) {}

  private headers(c: Call): Record<string, string> {
    const h: Record<string, string> = { ...this.opts.headers, Accept: 'application/json' };
    if (this.opts.internalToken) h['X-Internal-Token'] = this.opts.internalToken;
    if (c.actor) {
      h['X-User-Id'] = c.actor.userId;
      h['X-User-Role'] = c.actor.role;
      h['X-Organization-Id'] = c.actor.organizationId;
    }
    if (c.bearer) h.Authorization = `Bearer ${c.bearer}`;
    if (c.json !== undefined) h['Content-Type'] = 'application/json';
    return h;
  }

  async call(service: keyof PlatformUrls, c: Call): Promise<Json> {
    const url = `${this.urls[service].replace(/\/+$/, '')}${c.path}`;
    const method = c.method ?? (c.json !== undefined || c.form ? 'POST' : 'GET');
    const res = await fetch(url, {
      method,
      headers: this.headers(c),
      body: c.form ?? (c.json === undefined ? undefined : JSON.stringify(c.json)),
      signal: AbortSignal.timeout(this.opts.requestTimeoutMs ?? 30_000),
    }).catch((err: unknown) => fail(c.step, `${method} ${url} failed: ${String(err)}`, null));
    const raw = await res.text();
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // Not JSON: shown as text below.
    }
    if (res.status !== c.expect) fail(c.step, `${method} ${url} answered ${res.status}, expected ${c.expect}`, body);
    if (!body || typeof body !== 'object') fail(c.step, `${method} ${url} answered no JSON object`, body);
    return body as Json;
  }

  /** Calls until `done` says yes (a FAILED answer may throw from `done`), within the wait bound. */
  async poll(service: keyof PlatformUrls, c: Call, done: (body: Json) => boolean): Promise<Json> {
    const deadline = Date.now() + (this.opts.waitTimeoutMs ?? 120_000);
    for (;;) {
      const body = await this.call(service, c);
      if (done(body)) return body;
      if (Date.now() > deadline) fail(c.step, `not done within ${this.opts.waitTimeoutMs ?? 120_000} ms`, body);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

interface User {
  actor: Actor;
  email: string;
}

async function registerAndLogin(p: Platform, role: Actor['role'], tag: string, org?: string): Promise<User> {
  const email = `${role.toLowerCase()}-${tag}@thpt.edu.vn`;
  const password = `Mật-khẩu-${randomUUID()}`;
  const fullName = role === 'TEACHER' ? 'Nguyễn Thị Giáo Viên' : 'Trần Văn Học Sinh';
  const step = `register ${role}`;
  const reg = await p.call('auth', {
    step,
    path: '/v1/auth/register',
    json: { email, password, fullName, role },
    expect: 201,
  });
  const id = text(step, reg, 'data.user.id');
  expectEqual(step, reg, 'data.user.role', role);
  expectEqual(step, reg, 'data.tokenType', 'Bearer');
  const login = await p.call('auth', {
    step: `login ${role}`,
    path: '/v1/auth/login',
    json: { email: ` ${email.toUpperCase()} `, password },
    expect: 200,
  });
  expectEqual(`login ${role}`, login, 'message', 'Logged in');
  expectEqual(`login ${role}`, login, 'data.user.id', id);
  const token = text(`login ${role}`, login, 'data.accessToken');
  const me = await p.call('auth', { step: `me ${role}`, path: '/v1/auth/me', bearer: token, expect: 200 });
  expectEqual(`me ${role}`, me, 'data.id', id);
  const organizationId = org ?? text(`login ${role}`, login, 'data.user.defaultOrganizationId');
  return { actor: { userId: id, role, organizationId }, email };
}

async function createDirectQuestion(p: Platform, teacher: Actor): Promise<string> {
  const step = 'create a question in the bank';
  const body = {
    type: 'SINGLE_CHOICE',
    content: 'Câu hỏi soạn trực tiếp: 2 + 3 = ?',
    options: [{ content: '4' }, { content: '5', isCorrect: true }, { content: '6' }, { content: '7' }],
    tags: ['exam-flow'],
    status: 'DRAFT',
  };
  const res = await p.call('questionBank', { step, path: '/v1/questions', actor: teacher, json: body, expect: 201 });
  expectEqual(step, res, 'data.status', 'DRAFT');
  return text(step, res, 'data.id');
}

async function uploadAndWait(p: Platform, teacher: Actor, docx: ExamDocx): Promise<string> {
  const form = new FormData();
  const type = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  form.append('file', new Blob([docx.bytes], { type }), docx.fileName);
  const up = await p.call('documentImport', {
    step: 'upload the DOCX',
    path: '/v1/import/docx/qas/jobs',
    actor: teacher,
    form,
    expect: 202,
  });
  const jobId = text('upload the DOCX', up, 'data.id');
  expectEqual('upload the DOCX', up, 'data.status', 'PENDING');
  const step = `wait for import job ${jobId}`;
  const done = await p.poll(
    'documentImport',
    { step, path: `/v1/import/docx/jobs/${jobId}/status`, actor: teacher, expect: 200 },
    (body) => {
      const status = at(body, 'data.status');
      if (status === 'FAILED' || status === 'CANCELLED') fail(step, `the job is ${String(status)}`, body);
      return status === 'COMPLETED';
    },
  );
  expectEqual(step, done, 'data.totalQuestions', docx.questions);
  return jobId;
}

async function approveAndReadBack(p: Platform, teacher: Actor, jobId: string, expected: number): Promise<string[]> {
  const step = 'approve into the question bank';
  const approved = await p.call('documentImport', {
    step,
    path: `/v1/import/docx/jobs/${jobId}/approve`,
    actor: teacher,
    json: { target: 'QUESTION_BANK', questionMetadata: { gradeLevel: 12, tags: ['exam-flow'] } },
    expect: 200,
  });
  expectEqual(step, approved, 'data.replayed', false);
  expectEqual(step, approved, 'data.result.importedCount', expected);
  const ids = (at(approved, 'data.result.questionIds') ?? []) as string[];
  const read = 'read the imported questions back';
  const listed = await p.call('questionBank', {
    step: read,
    path: `/v1/questions?sourceImportJobId=${encodeURIComponent(jobId)}&limit=100`,
    actor: teacher,
    expect: 200,
  });
  const items = objects(read, listed, 'data.items');
  sameSet(
    read,
    items.map((q) => String(q.id)),
    ids,
    listed,
  );
  if (ids.length !== expected) fail(step, `${ids.length} question ids, expected ${expected}`, approved);
  if (items.some((q) => q.status !== 'DRAFT')) fail(read, 'an imported question is not DRAFT', listed);
  return ids;
}

async function publish(p: Platform, teacher: Actor, directId: string, importedIds: string[]): Promise<void> {
  const one = await p.call('questionBank', {
    step: 'publish the direct question',
    method: 'PATCH',
    path: `/v1/questions/${encodeURIComponent(directId)}`,
    actor: teacher,
    json: { status: 'PUBLISHED' },
    expect: 200,
  });
  expectEqual('publish the direct question', one, 'data.status', 'PUBLISHED');
  const step = 'publish the imported questions';
  const bulk = await p.call('questionBank', {
    step,
    method: 'PATCH',
    path: '/v1/questions/bulk-status',
    actor: teacher,
    json: { ids: importedIds, status: 'PUBLISHED' },
    expect: 200,
  });
  expectEqual(step, bulk, 'data.updated', importedIds.length);
}

async function selectExam(p: Platform, teacher: Actor, examId: string, published: string[]): Promise<Json[]> {
  const step = 'select the exam by blueprint';
  const res = await p.call('questionBank', {
    step,
    path: '/v1/internal/questions/select-for-exam-blueprint',
    actor: teacher,
    json: { rules: [{ count: published.length }], randomSeed: examId, requireComplete: true },
    expect: 200,
  });
  expectEqual(step, res, 'data.complete', true);
  const items = objects(step, res, 'data.items');
  sameSet(
    step,
    items.map((i) => String(i.questionId)),
    published,
    res,
  );
  return items.map((i) => {
    if (!i.snapshot || typeof i.snapshot !== 'object') fail(step, 'an item has no snapshot', i);
    return i.snapshot as Json;
  });
}

// The points an exam gives each question (THPT weights), sent as the snapshot's `score`.
const EXAM_POINTS: Record<string, number> = {
  SINGLE_CHOICE: 0.25,
  MULTIPLE_CHOICE: 0.25,
  TRUE_FALSE: 0.25,
  TRUE_FALSE_GROUP: 1,
  SHORT_ANSWER: 0.5,
  SHORT_NUMERIC_ANSWER: 0.5,
};
export const examPoints = (type: unknown): number => EXAM_POINTS[String(type)] ?? 1;

export interface PlannedAnswer {
  /** The save body's answer fields. */
  fields: Json;
  right: boolean;
}

const TEXT_TYPES = new Set(['SHORT_ANSWER', 'SHORT_NUMERIC_ANSWER']);
const UNGRADED_TYPES = new Set(['ESSAY', 'PASSAGE_READING']);
const asObjects = (v: unknown): Json[] =>
  Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null) : [];
const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
const keysOf = (s: Json): Json =>
  typeof s.answerKeys === 'object' && s.answerKeys !== null ? (s.answerKeys as Json) : {};

function textAnswer(s: Json, right: boolean): PlannedAnswer | null {
  const accepted = asStrings(keysOf(s).acceptedAnswers).filter((a) => a.trim() !== '');
  if (accepted.length === 0) return null;
  // Neither a number nor any key's text: wrong whatever the tolerance.
  return { fields: { textAnswer: right ? accepted[0] : 'không biết' }, right };
}

function statementAnswer(s: Json, right: boolean): PlannedAnswer | null {
  const items = asObjects(s.subItems).filter(
    (i) => typeof i.label === 'string' && typeof i.correctBoolean === 'boolean',
  );
  if (items.length === 0) return null;
  // Every statement inverted: none right, which earns 0 on the ladder and under EXACT.
  const statementAnswers = items.map((i) => ({ label: i.label, value: right ? i.correctBoolean : !i.correctBoolean }));
  return { fields: { statementAnswers }, right };
}

function choiceAnswer(s: Json, right: boolean): PlannedAnswer | null {
  const options = asObjects(s.options).filter((o) => typeof o.id === 'string');
  const ids = new Set(options.map((o) => o.id as string));
  const byKey = asStrings(keysOf(s).correctOptionIds).filter((id) => ids.has(id));
  const correct = byKey.length > 0 ? byKey : options.filter((o) => o.isCorrect === true).map((o) => o.id as string);
  const wrong = options.map((o) => o.id as string).find((id) => !correct.includes(id));
  if (correct.length === 0 || (!right && wrong === undefined)) return null;
  return { fields: { selectedOptionIds: right ? correct : [wrong] }, right };
}

/**
 * What a student sends to get a question right or wrong, read from the snapshot's keys as
 * DESIGN.md's "Answer keys and grading" states them; null when it has nothing gradable. A wrong
 * answer earns 0 under EXACT and the THPT ladder; a PARTIAL question is always answered right,
 * because its penalty rules would make "wrong" a matter of degree.
 */
export function planAnswer(snapshot: Json, right: boolean): PlannedAnswer | null {
  const type = String(snapshot.type);
  const rule = (snapshot.scoringRule ?? {}) as Json;
  const wanted = right || rule.mode === 'PARTIAL';
  if (UNGRADED_TYPES.has(type)) return null;
  if (TEXT_TYPES.has(type)) return textAnswer(snapshot, wanted);
  return statementAnswer(snapshot, wanted) ?? choiceAnswer(snapshot, wanted) ?? textAnswer(snapshot, wanted);
}

const units = (x: number) => Math.round(x * 10_000);

async function startAttempt(p: Platform, student: Actor, examId: string, questions: Json[]): Promise<string> {
  const step = 'start the attempt';
  const hour = 3_600_000;
  const exam = {
    id: examId,
    organizationId: student.organizationId,
    title: 'Đề kiểm tra (exam flow)',
    status: 'PUBLISHED',
    deliveryMode: 'ONLINE',
    durationMinutes: 45,
    maxAttempts: 1,
    openTime: new Date(Date.now() - hour).toISOString(),
    closeTime: new Date(Date.now() + 2 * hour).toISOString(),
    showResultMode: 'IMMEDIATE',
    gradeLevel: 12,
  };
  const res = await p.call('attempt', {
    step,
    path: `/v1/exams/${encodeURIComponent(examId)}/attempts`,
    actor: student,
    json: { exam, access: { assigned: true }, questions, studentInfo: { fullName: 'Trần Văn Học Sinh' } },
    expect: 201,
  });
  expectEqual(step, res, 'data.created', true);
  expectEqual(step, res, 'data.attempt.status', 'IN_PROGRESS');
  expectEqual(step, res, 'data.attempt.studentId', student.userId);
  if (objects(step, res, 'data.attempt.questions').length !== questions.length)
    fail(step, `the attempt does not hold the ${questions.length} questions`, res);
  return text(step, res, 'data.attempt.id');
}

interface Expected {
  right: number;
  wrong: number;
  blank: number;
  score: number;
  max: number;
}

/** Saves right answers for even positions and wrong ones for odd; returns what grading must give. */
async function answerAll(p: Platform, student: Actor, attemptId: string, questions: Json[]): Promise<Expected> {
  const out: Expected = { right: 0, wrong: 0, blank: 0, score: 0, max: 0 };
  for (const [i, q] of questions.entries()) {
    out.max += units(Number(q.score));
    const plan = planAnswer(q, i % 2 === 0);
    if (!plan) {
      out.blank += 1;
      continue;
    }
    const step = `save the answer to ${String(q.questionId)}`;
    const res = await p.call('attempt', {
      step,
      path: `/v1/attempts/${encodeURIComponent(attemptId)}/answers`,
      actor: student,
      json: { questionId: q.questionId, ...plan.fields },
      expect: 200,
    });
    expectEqual(step, res, 'data.status', 'IN_PROGRESS');
    if (plan.right) out.score += units(Number(q.score));
    out[plan.right ? 'right' : 'wrong'] += 1;
  }
  return { ...out, score: out.score / 10_000, max: out.max / 10_000 };
}

function checkGrade(step: string, body: Json, prefix: string, want: Expected): void {
  expectEqual(step, body, `${prefix}.status`, 'GRADED');
  if (units(num(step, body, `${prefix}.totalScore`)) !== units(want.score))
    fail(step, `totalScore is not the ${want.score} the keys imply`, body);
  if (units(num(step, body, `${prefix}.maxScore`)) !== units(want.max))
    fail(step, `maxScore is not the ${want.max} the exam gives`, body);
  expectEqual(step, body, `${prefix}.correctCount`, want.right);
  expectEqual(step, body, `${prefix}.wrongCount`, want.wrong);
}

async function submitAndRead(p: Platform, student: Actor, attemptId: string, want: Expected): Promise<Json> {
  const path = `/v1/attempts/${encodeURIComponent(attemptId)}`;
  const submitted = await p.call('attempt', {
    step: 'submit',
    path: `${path}/submit`,
    actor: student,
    json: { source: 'STUDENT' },
    expect: 200,
  });
  checkGrade('submit', submitted, 'data', want);
  const step = 'read the result';
  const result = await p.call('attempt', { step, path: `${path}/result`, actor: student, expect: 200 });
  checkGrade(step, result, 'data.attempt', want);
  expectEqual(step, result, 'data.attempt.resultsVisible', true);
  const percent = num(step, result, 'data.scorePercent');
  if (Math.abs(percent - (want.score * 100) / want.max) > 1e-9)
    fail(step, `scorePercent is not ${want.score} / ${want.max}`, result);
  return result;
}

/** Runs the whole flow once with fresh users; throws on the first unexpected answer. */
export async function examFlow(urls: PlatformUrls, opts: ExamFlowOptions = {}): Promise<ExamFlowSummary> {
  const p = new Platform(urls, opts);
  const timings: Record<string, number> = {};
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const value = await run();
    timings[name] = Date.now() - started;
    opts.log?.(`exam flow: ${name} done in ${timings[name]} ms`);
    return value;
  };
  const tag = randomUUID().slice(0, 13);
  const docx = opts.docx ?? (await sampleExamDocx(6));
  const [teacher, student] = await phase('auth', async () => {
    const t = await registerAndLogin(p, 'TEACHER', tag, opts.organizationId);
    return [t, await registerAndLogin(p, 'STUDENT', tag, t.actor.organizationId)] as const;
  });
  const t = teacher.actor;
  const directQuestionId = await phase('question', () => createDirectQuestion(p, t));
  const importJobId = await phase('import', () => uploadAndWait(p, t, docx));
  const importedQuestionIds = await phase('approve', () => approveAndReadBack(p, t, importJobId, docx.questions));
  const examId = `exam-flow-${tag}`;
  const snapshots = await phase('publish+select', async () => {
    await publish(p, t, directQuestionId, importedQuestionIds);
    return selectExam(p, t, examId, [directQuestionId, ...importedQuestionIds]);
  });
  const questions = snapshots.map((s, i) => ({ ...s, orderIndex: i, score: examPoints(s.type) }));
  const attemptId = await phase('start', () => startAttempt(p, student.actor, examId, questions));
  const want = await phase('answers', () => answerAll(p, student.actor, attemptId, questions));
  if (want.right === 0 || want.wrong === 0) fail('answers', 'the exam needs a right and a wrong answer', want);
  const result = await phase('submit+result', () => submitAndRead(p, student.actor, attemptId, want));
  return {
    organizationId: t.organizationId,
    teacher: { id: t.userId, email: teacher.email },
    student: { id: student.actor.userId, email: student.email },
    directQuestionId,
    importJobId,
    importedQuestionIds,
    examId,
    examQuestionIds: snapshots.map((s) => String(s.questionId)),
    attemptId,
    answered: { right: want.right, wrong: want.wrong, blank: want.blank },
    expectedScore: want.score,
    totalScore: num('summary', result, 'data.attempt.totalScore'),
    maxScore: num('summary', result, 'data.attempt.maxScore'),
    scorePercent: num('summary', result, 'data.scorePercent'),
    timings,
  };
}
