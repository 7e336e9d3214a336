// Pure: exam question snapshots from a QAS output and the question bank's imported ids.
import type { QasOutput } from '../parser/index.js';
import type { ExamSnapshot } from './exam-client.js';
import type { IngestResult } from './question-bank-client.js';

const TRUE_FALSE = 'TRUE_FALSE_GROUP';

function plainText(content: string): string {
  return content
    .replace(/\[\[media:\d+\]\]/g, ' ')
    .replace(/\$([^$]*)\$/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The bank's id for each output question: by the ingest's own mapping, else by position. */
export function importedIds(output: QasOutput, ingest: IngestResult): Map<string, string> {
  const ids = new Map<string, string>();
  if (Array.isArray(ingest.questions)) {
    for (const q of ingest.questions) ids.set(q.sourceQuestionId, q.questionId);
    return ids;
  }
  output.questions.forEach((q, i) => {
    const id = ingest.questionIds[i];
    if (id) ids.set(String(q.id), id);
  });
  return ids;
}

function scoreOf(q: Record<string, unknown>): number {
  return typeof q.points === 'number' && q.points > 0 ? q.points : 1;
}

/**
 * One snapshot per imported question, in output order (orderIndex 1…): score from `points` (else
 * 1), option ids `<questionId>:<label>` (a true/false group's statements as its options), scoring EXACT or THPT_TRUE_FALSE_LADDER for true/false
 * groups. The bank's version id is not in its ingest answer, so questionVersionId is null.
 */
export function buildSnapshots(output: QasOutput, ingest: IngestResult): ExamSnapshot[] {
  const ids = importedIds(output, ingest);
  const snapshots: ExamSnapshot[] = [];
  for (const q of output.questions) {
    const questionId = ids.get(String(q.id));
    if (!questionId) continue;
    // A true/false group's statements (a–d) are what the student answers: they are its options.
    const source = q.type === TRUE_FALSE ? q.sub_items : q.options;
    const labeled = (source as Array<{ label: string; content: string }> | undefined) ?? [];
    const options = labeled.map((o) => ({ id: `${questionId}:${o.label}`, label: o.label, content: o.content }));
    const score = scoreOf(q);
    const content = String(q.content ?? '');
    snapshots.push({
      questionId,
      questionVersionId: null,
      orderIndex: snapshots.length + 1,
      score,
      type: String(q.type),
      content,
      contentText: plainText(content),
      options,
      optionOrder: options.map((o) => o.id),
      correctAnswer: q.correct_answer ?? null,
      scoringRule: { mode: q.type === TRUE_FALSE ? 'THPT_TRUE_FALSE_LADDER' : 'EXACT', maxScore: score },
    });
  }
  return snapshots;
}
