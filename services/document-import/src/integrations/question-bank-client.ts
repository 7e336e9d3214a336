import { callJson, scopeHeaders, type PeerEndpoint, type Scope } from './http.js';

export const INGEST_PATH = '/v1/questions/import-docx-output';

/** What the question bank answers (fields beyond these are kept as they come). */
export interface IngestResult {
  documentId: string;
  questionIds: string[];
  /** Per imported question: the output's question id and the bank's id. */
  questions?: Array<{ sourceQuestionId: string; questionId: string; type?: string }>;
  [field: string]: unknown;
}

/** The question bank's DOCX ingest (an internal route: scope headers, internal token when set). */
export class QuestionBankClient {
  constructor(private readonly endpoint: PeerEndpoint) {}

  importDocxOutput(body: Record<string, unknown>, scope: Scope, idempotencyKey: string): Promise<IngestResult> {
    return callJson<IngestResult>(this.endpoint, {
      service: 'question bank',
      method: 'POST',
      path: INGEST_PATH,
      headers: { ...scopeHeaders(scope, this.endpoint), 'Idempotency-Key': idempotencyKey },
      body,
    });
  }
}
