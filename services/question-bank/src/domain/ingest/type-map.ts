// Pure: which core type an imported question gets. The item's own code decides (the parser's
// `type`, else a legacy `preset_code` / `template_code`); `group_id` never does. A code we do not
// know falls back to the item's shape, with a warning.
import type { CoreType } from '../../store/question-models.js';
import type { IngestQuestion } from './types.js';

const ALIASES: Record<CoreType, readonly string[]> = {
  SINGLE_CHOICE: ['SINGLE_CHOICE', 'DGNL_SINGLE_CHOICE', 'MCQ', 'SINGLE', 'ONE_CHOICE', 'TRAC_NGHIEM', 'PART_I'],
  MULTIPLE_CHOICE: ['MULTIPLE_CHOICE', 'MULTI_CHOICE', 'MULTIPLE_SELECT', 'MULTI_SELECT', 'CHECKBOX', 'MCQ_MULTI'],
  TRUE_FALSE: ['TRUE_FALSE', 'TF', 'YES_NO', 'BOOLEAN'],
  TRUE_FALSE_GROUP: ['TRUE_FALSE_GROUP', 'TF_GROUP', 'THPT_TRUE_FALSE', 'DUNG_SAI', 'PART_II'],
  SHORT_NUMERIC_ANSWER: ['SHORT_NUMERIC_ANSWER', 'SHORT_NUMERIC', 'NUMERIC', 'THPT_SHORT_ANSWER', 'PART_III'],
  SHORT_ANSWER: ['SHORT_ANSWER', 'FILL_IN_BLANK', 'FILL_BLANK', 'TEXT', 'TRA_LOI_NGAN'],
  ESSAY: ['ESSAY', 'LONG_ANSWER', 'TU_LUAN', 'WRITING'],
  PASSAGE_READING: ['PASSAGE_READING', 'READING', 'PASSAGE', 'CLOZE'],
};

/** Every legacy or preset code we map, normalized, to its core type (published in the OpenAPI). */
export const LEGACY_TYPE_MAP: ReadonlyMap<string, CoreType> = new Map(
  Object.entries(ALIASES).flatMap(([core, codes]) => codes.map((c) => [c, core as CoreType] as const)),
);

/** `dgnl-single choice` and `DGNL_SINGLE_CHOICE` are one code: upper case, runs of other characters as `_`. */
export function normalizeCode(code: string): string {
  return code
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đĐ]/g, 'D')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

export function coreTypeOf(code: string | undefined): CoreType | undefined {
  return code === undefined ? undefined : LEGACY_TYPE_MAP.get(normalizeCode(code));
}

function correctLabelCount(q: IngestQuestion): number {
  const a = q.correct_answer;
  if (Array.isArray(a)) return a.length;
  const marked = (q.options ?? []).filter((o) => o.is_correct === true).length;
  return marked;
}

/** The type a question's shape suggests when no code is known. */
export function typeFromShape(q: IngestQuestion): CoreType {
  if ((q.options ?? []).length >= 2) return correctLabelCount(q) > 1 ? 'MULTIPLE_CHOICE' : 'SINGLE_CHOICE';
  if ((q.sub_items ?? []).length > 0) return 'TRUE_FALSE_GROUP';
  if (typeof q.correct_answer_numeric === 'number') return 'SHORT_NUMERIC_ANSWER';
  if (typeof q.correct_answer === 'string' && q.correct_answer.trim() !== '') return 'SHORT_ANSWER';
  return 'ESSAY';
}

export interface TypeDecision {
  type: CoreType;
  /** The code as sent (kept in source metadata), or null when none was. */
  sourceCode: string | null;
  /** True when no sent code was known and the shape decided. */
  inferred: boolean;
}

export function decideType(q: IngestQuestion): TypeDecision {
  const codes = [q.type, q.preset_code, q.template_code].filter((c): c is string => typeof c === 'string');
  for (const code of codes) {
    const type = coreTypeOf(code);
    if (type) return { type, sourceCode: code, inferred: false };
  }
  return { type: typeFromShape(q), sourceCode: codes[0] ?? null, inferred: true };
}
