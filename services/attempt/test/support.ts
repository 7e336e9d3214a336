import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { AttemptConfig } from '../src/config.js';
import { attemptService, type BuiltAttempt } from '../src/service.js';

export type TestAttempt = TestService<AttemptConfig, BuiltAttempt>;

/** The real attempt service, started as main.ts starts it; the sweeper is off unless asked for. */
export function startAttemptService(file: string, env: Record<string, string> = {}, kafka = false) {
  return startTestService(attemptService, { file, env: { ATTEMPT_SWEEP_INTERVAL_MS: '0', ...env }, kafka });
}

/** Moves the service's clock (the domain reads only deps.clock) by `ms` from real time. */
export function shiftClock(svc: TestAttempt, ms: number): void {
  svc.built.deps.clock = () => new Date(Date.now() + ms);
}

export interface Who {
  userId?: string;
  role?: string;
  organizationId?: string;
}

export const student = (userId = 's1'): Who => ({ userId, role: 'STUDENT' });
export const teacher = (userId = 't1', organizationId?: string): Who => ({ userId, role: 'TEACHER', organizationId });
export const admin = (userId = 'a1'): Who => ({ userId, role: 'ADMIN' });

export function headers(who: Who): Record<string, string> {
  const h: Record<string, string> = {};
  if (who.userId) h['X-User-Id'] = who.userId;
  if (who.role) h['X-User-Role'] = who.role;
  if (who.organizationId) h['X-Organization-Id'] = who.organizationId;
  return h;
}

const HOUR = 3600_000;

/** Three gradable questions (worth 1, 2 and 1): single choice, a THPT true/false group, a numeric short answer. */
export function questions() {
  return [
    {
      id: 'eq1',
      questionId: 'q1',
      orderIndex: 0,
      score: 1,
      type: 'SINGLE_CHOICE',
      content: '1 + 1 = ?',
      options: [
        { id: 'o1', label: 'A', content: '1', isCorrect: false },
        { id: 'o2', label: 'B', content: '2', isCorrect: true },
        { id: 'o3', label: 'C', content: '3', isCorrect: false },
        { id: 'o4', label: 'D', content: '4', isCorrect: false },
      ],
      answerKeys: { correctOptionIds: ['o2'], correctLabels: ['B'] },
      scoringRule: { mode: 'EXACT', maxScore: 1 },
      topicId: 'tp-add',
      topicName: 'Phép cộng',
    },
    {
      id: 'eq2',
      questionId: 'q2',
      orderIndex: 1,
      score: 2,
      type: 'TRUE_FALSE_GROUP',
      content: 'Đúng hay sai',
      options: [],
      subItems: [
        { label: 'A', content: 'a', correctBoolean: true },
        { label: 'B', content: 'b', correctBoolean: false },
        { label: 'C', content: 'c', correctBoolean: true },
        { label: 'D', content: 'd', correctBoolean: false },
      ],
      scoringRule: { mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 2 },
      topicId: 'tp-logic',
      topicName: 'Logic',
    },
    {
      id: 'eq3',
      questionId: 'q3',
      orderIndex: 2,
      score: 1,
      type: 'SHORT_ANSWER',
      content: '1/4 = ?',
      options: [],
      answerKeys: { acceptedAnswers: ['0.25'] },
      scoringRule: { mode: 'EXACT', maxScore: 1 },
      topicId: 'tp-frac',
    },
  ];
}

/** A startable request for `examId` (published, online, open for an hour, assigned); override any part. */
export function startBody(examId: string, over: { exam?: object; access?: object; questions?: unknown[] } = {}) {
  return {
    exam: {
      id: examId,
      organizationId: 'org-a',
      title: 'Kiểm tra 15 phút',
      status: 'PUBLISHED',
      deliveryMode: 'ONLINE',
      durationMinutes: 15,
      maxAttempts: 3,
      requiresAccessPassword: false,
      shuffleQuestions: false,
      shuffleOptions: false,
      randomizePerAttempt: false,
      openTime: new Date(Date.now() - HOUR).toISOString(),
      closeTime: new Date(Date.now() + HOUR).toISOString(),
      showResultMode: 'IMMEDIATE',
      resultsReleasedAt: null,
      subjectId: 'math',
      gradeLevel: 10,
      ...over.exam,
    },
    access: { assigned: true, classroomId: 'c10a1', classroomName: '10A1', ...over.access },
    questions: over.questions ?? questions(),
    studentInfo: { fullName: 'Nguyễn Văn A', accountCode: 'HS001' },
  };
}

export const newExamId = () => `ex-${randomUUID()}`;

type Attempt = { id: string; status: string; [k: string]: unknown };

/** Starts an attempt as `who` and returns it (throws on anything but 200/201). */
export async function startAs(svc: TestAttempt, who: Who, body: ReturnType<typeof startBody>): Promise<Attempt> {
  const res = await svc.request.post(`/v1/exams/${body.exam.id}/attempts`).set(headers(who)).send(body);
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`start failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.attempt as Attempt;
}

/** Polls `check` until it returns a value or `ms` pass (bounded wait, no fixed sleep). */
export async function waitFor<T>(check: () => Promise<T | undefined>, ms = 20000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
