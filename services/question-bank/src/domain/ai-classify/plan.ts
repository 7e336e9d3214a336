// Pure: what one apply item changes on one question, and why each other field is left alone.
import { CORE_TYPES, type CoreType, type QuestionRow } from '../../store/question-models.js';
import { publishProblems } from '../questions/base-type.js';
import { resolveRef, resolveType, type RefCandidate, type TypeDef } from './candidates.js';
import { DIRECT_FIELDS, REF_KIND, isMissing, isRefField, legacyDifficulty, type DirectField } from './fields.js';

export interface FieldValue {
  value: string;
  confidence?: number;
}

export interface ApplyItem {
  questionId: string;
  acceptedFields: DirectField[];
  fields: Partial<Record<DirectField, string | FieldValue>>;
  confidence?: number;
}

export interface ApplyCatalog {
  pool: RefCandidate[];
  types: TypeDef[];
}

export interface ApplyOptions {
  threshold: number;
  overwrite: boolean;
}

export type SkipReason =
  | 'NOT_ACCEPTED'
  | 'NO_VALUE'
  | 'BELOW_THRESHOLD'
  | 'KEPT_EXISTING'
  | 'UNRESOLVED'
  | 'UNCHANGED'
  | 'DERIVED_FROM_CUSTOM_TYPE'
  | 'BREAKS_PUBLISHED';

export interface Applied {
  field: DirectField;
  value: string;
  previous: string | null;
  confidence: number | null;
}

export interface Plan {
  set: Partial<QuestionRow>;
  applied: Applied[];
  skipped: Array<{ field: DirectField; reason: SkipReason }>;
}

const valueOf = (v: string | FieldValue | undefined) => (typeof v === 'string' ? v : v?.value);

function confidenceOf(item: ApplyItem, field: DirectField): number | null {
  const v = item.fields[field];
  const own = typeof v === 'object' ? v.confidence : undefined;
  return own ?? item.confidence ?? null;
}

/** Why a field is not even resolved, or null when it goes on to resolution. */
function gateOf(row: QuestionRow, item: ApplyItem, field: DirectField, opts: ApplyOptions): SkipReason | null {
  const given = valueOf(item.fields[field]) !== undefined;
  const accepted = item.acceptedFields.includes(field);
  if (!accepted) return given ? 'NOT_ACCEPTED' : null;
  if (!given) return 'NO_VALUE';
  const confidence = confidenceOf(item, field);
  // No confidence at all: the reviewer accepted the field, so nothing gates it.
  if (confidence !== null && confidence < opts.threshold) return 'BELOW_THRESHOLD';
  return !opts.overwrite && !isMissing(row, field) ? 'KEPT_EXISTING' : null;
}

function resolveTaxonomy(field: DirectField, value: string, pool: RefCandidate[]): Partial<QuestionRow> | null {
  if (!isRefField(field)) return null;
  const ref = resolveRef(pool, REF_KIND[field], value);
  if (!ref) return null;
  const out: Partial<QuestionRow> = { [field]: ref.id };
  if (field === 'gradeId' && typeof ref.numericLevel === 'number') out.gradeLevel = ref.numericLevel;
  if (field === 'difficultyLevelId' && ref.engineDifficulty) out.difficulty = ref.engineDifficulty;
  return out;
}

/** The resolved id (or core type) and what it derives, or null when it does not resolve. */
function resolveField(field: DirectField, value: string, catalog: ApplyCatalog): Partial<QuestionRow> | null {
  if (field === 'type') {
    const core = value.toUpperCase() as CoreType;
    return CORE_TYPES.includes(core) ? { type: core } : null;
  }
  if (field === 'customTypeId') {
    const def = resolveType(catalog.types, value);
    return def ? { customTypeId: def._id, type: def.baseType } : null;
  }
  return resolveTaxonomy(field, value, catalog.pool);
}

function unchanged(row: QuestionRow, field: DirectField, set: Partial<QuestionRow>): boolean {
  if (field === 'difficultyLevelId' && legacyDifficulty(row)) return false; // confirming it is a change
  return set[field] === row[field];
}

/** `type` alone drops a custom type of another base type; one of the same base type stays. */
function typeAlone(row: QuestionRow, set: Partial<QuestionRow>, catalog: ApplyCatalog): Partial<QuestionRow> {
  if (!row.customTypeId) return set;
  const def = catalog.types.find((d) => d._id === row.customTypeId);
  return def?.baseType === set.type ? set : { ...set, customTypeId: null };
}

interface Step {
  opts: ApplyOptions;
  catalog: ApplyCatalog;
  plan: Plan;
}

/** Why an accepted field is not applied after resolution, or null. */
function blockOf(
  row: QuestionRow,
  field: DirectField,
  set: Partial<QuestionRow> | null,
  step: Step,
): SkipReason | null {
  if (field === 'type' && step.plan.set.customTypeId !== undefined) return 'DERIVED_FROM_CUSTOM_TYPE';
  if (!set) return 'UNRESOLVED';
  return unchanged(row, field, set) ? 'UNCHANGED' : null;
}

function decide(row: QuestionRow, item: ApplyItem, field: DirectField, step: Step): void {
  const gate = gateOf(row, item, field, step.opts);
  if (gate) {
    step.plan.skipped.push({ field, reason: gate });
    return;
  }
  if (!item.acceptedFields.includes(field)) return;
  let set = resolveField(field, valueOf(item.fields[field])!, step.catalog);
  const block = blockOf(row, field, set, step);
  if (block || !set) {
    step.plan.skipped.push({ field, reason: block ?? 'UNRESOLVED' });
    return;
  }
  if (field === 'type') set = typeAlone(row, set, step.catalog);
  Object.assign(step.plan.set, set);
  const previous = field === 'difficultyLevelId' && legacyDifficulty(row) ? null : (row[field] ?? null);
  step.plan.applied.push({ field, value: set[field] as string, previous, confidence: confidenceOf(item, field) });
}

// customTypeId first: when both are accepted, the definition's base type decides `type`.
const ORDER: DirectField[] = ['customTypeId', ...DIRECT_FIELDS.filter((f) => f !== 'customTypeId')];

/** A type change that would make a PUBLISHED question break its base type is not applied. */
function guardPublished(row: QuestionRow, plan: Plan): void {
  const type = plan.set.type;
  if (row.status !== 'PUBLISHED' || type === undefined || type === row.type) return;
  if (publishProblems(type, row).length === 0) return;
  delete plan.set.type;
  delete plan.set.customTypeId;
  for (const f of ['type', 'customTypeId'] as const) {
    if (!plan.applied.some((a) => a.field === f)) continue;
    plan.applied = plan.applied.filter((a) => a.field !== f);
    plan.skipped.push({ field: f, reason: 'BREAKS_PUBLISHED' });
  }
}

export function planApply(row: QuestionRow, item: ApplyItem, opts: ApplyOptions, catalog: ApplyCatalog): Plan {
  const plan: Plan = { set: {}, applied: [], skipped: [] };
  for (const field of ORDER) decide(row, item, field, { opts, catalog, plan });
  guardPublished(row, plan);
  return plan;
}
