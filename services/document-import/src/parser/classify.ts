import type { Resolved } from './answers.js';
import type { QDraft } from './drafts.js';

export type QuestionType =
  | 'SINGLE_CHOICE'
  | 'MULTIPLE_CHOICE'
  | 'DGNL_SINGLE_CHOICE'
  | 'TRUE_FALSE_GROUP'
  | 'SHORT_NUMERIC_ANSWER'
  | 'SHORT_ANSWER'
  | 'ESSAY';

export interface Classified {
  type: QuestionType;
  confidence: number;
  /** why a human should look at it (a picture, table or graph carries the question) */
  review_reason: 'MEDIA' | 'TABLE' | 'GRAPH' | null;
}

export const LOW_CONFIDENCE = 0.7;

const NUMERIC_RE = /^-?\d+(?:[.,]\d+)?$/;

// A choice question's type is as sure as the answer that decides it: one marked option or several.
function choice(a: Resolved, dgnl: boolean): Classified {
  const sure = Math.min(0.95, a.confidence);
  if ((a.letters?.length ?? 0) > 1) return { type: 'MULTIPLE_CHOICE', confidence: sure, review_reason: null };
  if (a.style === 'highlight' && dgnl) {
    return { type: 'DGNL_SINGLE_CHOICE', confidence: Math.min(0.9, sure), review_reason: null };
  }
  return { type: 'SINGLE_CHOICE', confidence: a.letters ? sure : 0.75, review_reason: null };
}

function reviewReason(q: QDraft, hasMedia: boolean): Classified['review_reason'] {
  const stem = q.stem.map((l) => l.text).join(' ');
  if (/đồ\s+thị|biểu\s+đồ|graph|chart/iu.test(stem)) return 'GRAPH';
  if (hasMedia) return 'MEDIA';
  return q.tables > 0 ? 'TABLE' : null;
}

function open(q: QDraft, a: Resolved, hasMedia: boolean): Classified {
  const review = reviewReason(q, hasMedia);
  if (a.text !== undefined && NUMERIC_RE.test(a.text.replace(/\s/g, ''))) {
    return { type: 'SHORT_NUMERIC_ANSWER', confidence: 0.95, review_reason: null };
  }
  if (q.partHint === 'SHORT') return { type: 'SHORT_NUMERIC_ANSWER', confidence: 0.75, review_reason: review };
  if (a.text !== undefined && a.text.length <= 40)
    return { type: 'SHORT_ANSWER', confidence: 0.75, review_reason: null };
  if (q.points !== null || q.partHint === 'ESSAY') return { type: 'ESSAY', confidence: 0.9, review_reason: null };
  return { type: 'ESSAY', confidence: review ? 0.5 : 0.6, review_reason: review };
}

/** The contract's deterministic fallback: explicit hints first, then the shape of the question. A highlighted answer
 * is DGNL single choice only in a DGNL exam (`dgnl`: the document names itself one). */
export function classify(q: QDraft, a: Resolved, hasMedia: boolean, dgnl = false): Classified {
  if (q.options.length >= 2) return choice(a, dgnl);
  if ((q.subs.length >= 2 && (a.tf || q.partHint === 'TRUE_FALSE')) || (q.subs.length <= 1 && a.tf)) {
    return { type: 'TRUE_FALSE_GROUP', confidence: a.tf ? Math.min(0.95, a.confidence) : 0.75, review_reason: null };
  }
  return open(q, a, hasMedia);
}
