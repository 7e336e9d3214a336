import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { AnalyticsConfig } from '../src/config.js';
import { analyticsService, type BuiltAnalytics } from '../src/service.js';

export type TestAnalytics = TestService<AnalyticsConfig, BuiltAnalytics>;

/** The real analytics service, started as main.ts starts it, with its own database per test file. */
export function startAnalytics(file: string, env: Record<string, string> = {}, kafka = false) {
  return startTestService(analyticsService, { file, env, kafka });
}

export const ORG = 'org-a';

/** A valid PUT snapshot body; override any field. */
export function snapshot(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    student: { id: 'stu-1', fullName: 'Nguyễn Văn A', accountCode: 'HS001' },
    classroom: { id: 'class-1', name: '12A1' },
    exam: { id: 'exam-1', title: 'Kiểm tra Toán', subjectId: 'math', gradeLevel: 12 },
    score: 7.5,
    maxScore: 10,
    scorePercent: 75,
    correctCount: 3,
    wrongCount: 1,
    questionCount: 4,
    durationSeconds: 600,
    status: 'GRADED',
    submissionSource: 'STUDENT',
    startedAt: '2026-01-10T08:00:00.000Z',
    submittedAt: '2026-01-10T08:10:00.000Z',
    weakTopics: [{ topic: 'Hàm số', topicId: 'topic-fn', questionId: 'q-1' }],
    ...over,
  };
}

export function put(svc: TestAnalytics, attemptId: string, body: Record<string, unknown>, org = ORG) {
  return svc.request
    .put(`/v1/analytics/results/${attemptId}/snapshot`)
    .set(org ? { 'X-Organization-Id': org } : {})
    .send(body);
}
