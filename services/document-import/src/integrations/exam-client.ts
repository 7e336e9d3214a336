import { callJson, scopeHeaders, type PeerEndpoint, type Scope } from './http.js';

export interface ExamCreate {
  title: string;
  subjectId?: string;
  gradeLevel?: number;
  durationMinutes?: number;
}

export interface ExamSnapshot {
  questionId: string;
  questionVersionId: string | null;
  orderIndex: number;
  score: number;
  type: string;
  content: string;
  contentText: string;
  options: Array<{ id: string; label: string; content: string }>;
  optionOrder: string[];
  correctAnswer: unknown;
  scoringRule: { mode: string; maxScore: number };
}

/** The exam service: draft exams and their question snapshots. */
export class ExamClient {
  constructor(private readonly endpoint: PeerEndpoint) {}

  /** With an Idempotency-Key, a retried create answers the first exam (where the exam service honors it). */
  createDraft(exam: ExamCreate, scope: Scope, idempotencyKey?: string): Promise<{ id: string; status: string }> {
    const headers = scopeHeaders(scope, this.endpoint);
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    return callJson(this.endpoint, { service: 'exam service', method: 'POST', path: '/v1/exams', headers, body: exam });
  }

  putQuestionSnapshots(examId: string, snapshots: ExamSnapshot[], scope: Scope): Promise<{ count?: number }> {
    return callJson(this.endpoint, {
      service: 'exam service',
      method: 'PUT',
      path: `/v1/exams/${encodeURIComponent(examId)}/question-snapshots`,
      headers: scopeHeaders(scope, this.endpoint),
      body: { snapshots },
    });
  }
}
