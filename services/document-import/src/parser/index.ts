import { createHash } from 'node:crypto';
import { assignedChars, documentChars, fieldWarnings } from './accounting.js';
import {
  documentConvention,
  explicitKind,
  keyLookup,
  ownLetterKeys,
  type KeyLookup,
  type Resolved,
} from './answers.js';
import { resolveAnswer } from './resolve.js';
import { subsAsOptions } from './options.js';
import { noQuestionsError } from './empty.js';
import { buildModel, type DocModel } from './model.js';
import { groupItem, questionItem } from './output.js';
import { readDocxPackage } from './package.js';
import type { QDraft, Structure } from './drafts.js';
import { buildStructure } from './readings.js';
import { plainSeg, type Warning } from './types.js';
import type { DocxLimits } from './package.js';

export { DocxError } from './errors.js';
export type { DocxErrorCode, DocxErrorDetails } from './errors.js';
export { DEFAULT_LIMITS } from './zip.js';
export { DEFAULT_COMPLEXITY, type ComplexityLimits } from './limits.js';
export type { DocxLimits } from './package.js';

export interface ParseOptions {
  documentId?: string;
  /** over the defaults (DEFAULT_LIMITS, DEFAULT_COMPLEXITY) */
  limits?: Partial<DocxLimits>;
}

export interface QasOutput {
  document_id: string;
  latency_ms: number;
  questions: Record<string, unknown>[];
  groups: Record<string, unknown>[];
  warnings: Warning[];
  stats: Record<string, unknown>;
}

/** Below this share of its text assigned to fields, a document is said to be read only in part. */
const UNREAD_WARNING = 0.75;

const DGNL_RE = /ĐGNL|DGNL|đánh\s+giá\s+năng\s+lực/iu;

/** A DGNL (aptitude) exam names itself so: there a highlighted option is the DGNL single choice. */
function isDgnl(model: DocModel): boolean {
  for (const b of model.blocks) {
    if (b.kind === 'p' && DGNL_RE.test(b.segs.map((s) => s.text).join(''))) return true;
  }
  return false;
}

function documentWarnings(answers: Resolved[], model: DocModel, warnings: Warning[], dgnl: boolean): void {
  const styled = answers.filter((a) => a.evidence === 'DOCX_STYLE_HINT');
  if (styled.length > 0) {
    warnings.push({
      code: 'DOCX_NATIVE_STYLE_ANSWER_HINT_APPLIED',
      message: `${styled.length} answers read from the option formatted unlike its siblings (colour, bold, underline, italic or highlight)`,
    });
  }
  if (dgnl && styled.some((a) => a.style === 'highlight')) {
    warnings.push({ code: 'DOCX_NATIVE_DGNL_FALLBACK', message: 'highlighted answers read as DGNL single choice' });
  }
  if (model.unsupportedMath.length > 0) {
    warnings.push({
      code: 'DOCX_NATIVE_EQUATION_PARTIAL',
      message: `equation elements not converted exactly: ${model.unsupportedMath.join(', ')}`,
    });
  }
  if (model.media.some((m) => m.kind === 'equation_object')) {
    warnings.push({
      code: 'DOCX_NATIVE_OLE_EQUATION_KEPT',
      message: 'MathType/OLE equations kept as media references',
    });
  }
}

// Every question without an answer is named, but an essay the document declares one (points, an essay part).
function questionWarnings(q: QDraft, a: Resolved, item: Record<string, unknown>, warnings: Warning[]): void {
  const id = q.id;
  // a key written in the student-visible text was taken out of it: the teacher sees what and where
  for (const key of q.removedKeys ?? []) {
    warnings.push({
      code: 'DOCX_NATIVE_KEY_REMOVED',
      message: `key "${key.slice(0, 60)}" taken out of the question text`,
      question_id: id,
    });
  }
  if (a.conflict) warnings.push({ code: 'DOCX_NATIVE_ANSWER_CONFLICT', message: a.conflict, question_id: id });
  const declaredEssay = item.type === 'ESSAY' && (item.type_confidence as number) >= 0.9;
  if (!a.evidence && !declaredEssay) {
    warnings.push({ code: 'DOCX_NATIVE_ANSWER_MISSING', message: 'no answer found', question_id: id });
  }
}

const VIETNAMESE_RE = /[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/giu;

/** Vietnamese exams write true/false statements as a)…d): the labels (`Câu`, `PHẦN`) or the stems' letters tell. */
function isVietnamese(s: Structure): boolean {
  if (s.vietnamese) return true;
  const text = s.questions
    .slice(0, 20)
    .flatMap((q) => q.stem.map((l) => l.text))
    .join(' ');
  return (text.match(VIETNAMESE_RE)?.length ?? 0) >= 10;
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/** Lower-case a)…d) read as options where the question is keyed by letters, key section sentences as solutions,
 * options' own trailing letters as keys. */
function settleQuestions(structure: Structure, keys: KeyLookup): void {
  const vietnamese = isVietnamese(structure);
  for (const q of structure.questions) {
    const key = explicitKind(q, keys);
    if (subsAsOptions(q, key, vietnamese)) structure.conventions.add('options:lower-case');
  }
  // a key section's sentences explain their questions: the solution of a question that has none
  for (const q of structure.questions) {
    const text = q.solution.length === 0 ? keys(q)?.text : undefined;
    if (text) q.solution.push({ segs: [plainSeg(text)], text, para: q.para_end });
  }
  ownLetterKeys(structure.questions);
}

/** The share of the document's text assigned to fields; below UNREAD_WARNING the document is said read in part. */
function assignedShare(
  questions: Record<string, unknown>[],
  groups: Record<string, unknown>[],
  textChars: number,
  warnings: Warning[],
): number {
  const assigned = textChars === 0 ? 1 : Math.min(1, assignedChars(questions, groups) / textChars);
  if (assigned < UNREAD_WARNING) {
    warnings.push({
      code: 'DOCX_NATIVE_TEXT_UNREAD',
      message: `${Math.round((1 - assigned) * 100)}% of the document's text is in no question, option, solution or group`,
    });
  }
  return assigned;
}

/** The id the caller gave, or one made from the file's hash. */
function documentId(bytes: Uint8Array, opts: ParseOptions): string {
  return opts.documentId ?? `docx-${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
}

/** Parses a .docx file into the contract's QAS output. Throws DocxError for a hostile or corrupt file. */
export function parseDocx(bytes: Uint8Array, opts: ParseOptions = {}): QasOutput {
  const started = performance.now();
  const model = buildModel(readDocxPackage(bytes, opts.limits));
  const structure = buildStructure(model.blocks);
  const keys = keyLookup(structure.keys, structure.questions);
  const warnings: Warning[] = [];
  const dgnl = isDgnl(model);
  settleQuestions(structure, keys);
  const convention = documentConvention(structure.questions, keys);
  const answers = structure.questions.map((q) => resolveAnswer(q, keys, convention));
  const questions = structure.questions.map((q, i) => {
    const a = answers[i]!;
    const item = questionItem(q, a, warnings, dgnl);
    questionWarnings(q, a, item, warnings);
    return item;
  });
  if (questions.length === 0) throw noQuestionsError(model.blocks);
  documentWarnings(answers, model, warnings, dgnl);
  const groups = structure.groups.map(groupItem);
  fieldWarnings(questions, warnings);
  const textChars = documentChars(model);
  const assigned = assignedShare(questions, groups, textChars, warnings);
  const byType = countBy(questions.map((q) => q.type as string));
  return {
    document_id: documentId(bytes, opts),
    latency_ms: Math.round((performance.now() - started) * 100) / 100,
    questions,
    groups,
    warnings,
    stats: {
      total_questions: questions.length,
      total_images: model.media.filter((m) => m.kind !== 'equation_object').length,
      total_equation_objects: model.media.filter((m) => m.kind === 'equation_object').length,
      total_formulas: questions.reduce((n, q) => n + (q.formulas as unknown[]).length, 0),
      answered: answers.filter((a) => a.evidence).length,
      answer_sources: countBy(answers.map((a) => a.source ?? 'none')),
      conventions: [...structure.conventions].sort(),
      by_type: byType,
      paragraphs: model.blocks.length,
      text_chars: textChars,
      text_assigned: Math.round(assigned * 1000) / 1000,
    },
  };
}
