// Pure: the ingest's answer, the same for the first request and every replay.
import type { IngestLedgerRow } from '../../store/ingest-models.js';
import type { IngestRows, QuestionSummary } from './plan.js';
import type { IngestInput, IngestWarning } from './types.js';

export interface IngestResult {
  ingestId: string;
  documentId: string;
  sourceImportJobId: string | null;
  status: 'COMPLETE';
  questionIds: string[];
  questions: QuestionSummary[];
  groups: Array<{ sourceGroupId: string; groupId: string }>;
  counts: Record<'questions' | 'groups' | 'options' | 'subItems' | 'mediaRefs' | 'formulaRefs', number>;
  warnings: IngestWarning[];
  createdAt: string;
}

export function ingestResult(input: IngestInput, ledger: IngestLedgerRow, rows: IngestRows): IngestResult {
  const sum = (f: (q: IngestRows['questions'][number]) => number) => rows.questions.reduce((n, q) => n + f(q), 0);
  return {
    ingestId: ledger._id,
    documentId: ledger.documentId,
    sourceImportJobId: ledger.sourceImportJobId,
    status: 'COMPLETE',
    questionIds: rows.questions.map((q) => q._id),
    questions: rows.summaries,
    groups: ledger.plan.groups,
    counts: {
      questions: rows.questions.length,
      groups: rows.groups.length,
      options: sum((q) => q.options.length),
      subItems: sum((q) => q.subItems?.length ?? 0),
      mediaRefs: sum((q) => q.mediaRefs.length),
      formulaRefs: sum((q) => q.formulaRefs.length),
    },
    // The parser's warnings as received, then the ingest's own (each names its question).
    warnings: [...input.warnings.map((w) => ({ ...w })), ...rows.warnings],
    createdAt: ledger.createdAt.toISOString(),
  };
}
