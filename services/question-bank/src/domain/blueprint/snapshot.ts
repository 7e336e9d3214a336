// Pure: the by-value snapshot of a selected question, in the shapes the attempt service grades
// from (DESIGN "Answer keys and grading"): ordered options with `isCorrect`, `answerKeys`,
// `subItems`, `scoringRule`, media and formula refs, and the group passage when grouped.
import {
  TAXONOMY_FIELDS,
  VERSION_BODY_FIELDS,
  type CoreType,
  type OptionRow,
  type QuestionBody,
  type QuestionRow,
  type QuestionVersionRow,
} from '../../store/question-models.js';
import type { QuestionHydration } from '../hydrate.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The stored keys, completed from the options when they do not name the correct options
 * (questions written without `answerKeys` still carry `isCorrect` on their options).
 * TRUE_FALSE_GROUP keys live in `subItems[].correctBoolean`; they are not copied here.
 */
export function answerKeysOf(body: Pick<QuestionBody, 'answerKeys' | 'options'>): Json | null {
  const stored = isObject(body.answerKeys) ? body.answerKeys : null;
  const correct = body.options.filter((o) => o.isCorrect);
  if (correct.length === 0 || Array.isArray(stored?.correctOptionIds)) return stored;
  return { ...stored, correctOptionIds: correct.map((o) => o.id), correctLabels: correct.map((o) => o.label) };
}

/** The stored rule, else the platform default: the THPT ladder for TRUE_FALSE_GROUP, EXACT otherwise. */
export function scoringRuleOf(type: CoreType, stored: unknown): { rule: Json; defaulted: boolean } {
  if (isObject(stored) && typeof stored.mode === 'string') return { rule: stored, defaulted: false };
  const mode = type === 'TRUE_FALSE_GROUP' ? 'THPT_TRUE_FALSE_LADDER' : 'EXACT';
  return { rule: { mode, maxScore: 1 }, defaulted: true };
}

const optionView = (o: OptionRow, order: number) => ({
  id: o.id,
  label: o.label,
  content: o.content,
  contentJson: o.contentJson ?? null,
  isCorrect: o.isCorrect === true,
  order,
});

function taxonomyOf(row: QuestionRow): Json {
  const out: Json = { subjectId: row.subjectId, gradeLevel: row.gradeLevel, difficulty: row.difficulty };
  for (const f of TAXONOMY_FIELDS) out[f] = row[f] ?? null;
  return out;
}

// Missing members (rows written before a field existed) read as null or empty, never undefined.
const EMPTY: Record<string, unknown> = { options: [], mediaRefs: [], formulaRefs: [] };

/** The version's body fields, deep-copied, with null or empty for the missing ones. */
function bodyOf(source: QuestionBody): QuestionBody {
  const picked = Object.fromEntries(VERSION_BODY_FIELDS.map((f) => [f, source[f] ?? EMPTY[f] ?? null]));
  return structuredClone(picked) as unknown as QuestionBody;
}

/**
 * The snapshot: the current version's body (the row's mirror of it when the version row is
 * missing), copied so nothing the caller or the hydration does later can reach it.
 */
export function snapshotOf(
  row: QuestionRow,
  version: QuestionVersionRow | undefined,
  group: QuestionHydration['group'],
) {
  const body = bodyOf(version ?? row);
  const scoring = scoringRuleOf(row.type, body.scoringRule);
  const options = body.options.map(optionView);
  return {
    questionId: row._id,
    questionVersionId: row.currentVersionId,
    versionNumber: version ? version.versionNumber : row.versionNumber,
    type: row.type,
    customTypeId: row.customTypeId ?? null,
    ...body,
    contentText: body.content,
    options,
    optionOrder: options.map((o) => o.id),
    answerKeys: answerKeysOf(body),
    scoringRule: scoring.rule,
    scoringRuleDefaulted: scoring.defaulted,
    groupId: row.groupId ?? null,
    group: group ? structuredClone(group) : null,
    tags: [...(row.tags ?? [])],
    taxonomy: taxonomyOf(row),
  };
}

export type QuestionSnapshot = ReturnType<typeof snapshotOf>;
