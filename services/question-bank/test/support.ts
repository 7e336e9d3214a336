import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { QuestionBankConfig } from '../src/config.js';
import { questionBankService, type BuiltQuestionBank } from '../src/service.js';

export type TestQuestionBank = TestService<QuestionBankConfig, BuiltQuestionBank>;

/** The real question bank, started as main.ts starts it, with its own database per test file. */
export function startQuestionBank(file: string, env: Record<string, string> = {}, kafka = false) {
  return startTestService(questionBankService, { file, env, kafka });
}

export interface Who {
  userId?: string;
  role?: string;
  organizationId?: string;
}

export const teacher = (userId = 't1', organizationId = 'org-a'): Who => ({ userId, role: 'TEACHER', organizationId });
export const admin = (userId = 'a1', organizationId = 'org-a'): Who => ({ userId, role: 'ADMIN', organizationId });

export function headers(who: Who): Record<string, string> {
  const h: Record<string, string> = {};
  if (who.userId) h['X-User-Id'] = who.userId;
  if (who.role) h['X-User-Role'] = who.role;
  if (who.organizationId) h['X-Organization-Id'] = who.organizationId;
  return h;
}

/** A valid publishable single-choice body; override any field. */
export function choiceBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    content: 'Giải phương trình x + 1 = 2',
    options: [{ content: 'x = 1', isCorrect: true }, { content: 'x = 2' }],
    tags: ['Đại số'],
    ...over,
  };
}

export async function createAs(svc: TestQuestionBank, who: Who, body: Record<string, unknown> = choiceBody()) {
  const res = await svc.request.post('/v1/questions').set(headers(who)).send(body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Record<string, unknown> & { id: string };
}
