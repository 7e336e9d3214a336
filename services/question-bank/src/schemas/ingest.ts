import Joi from 'joi';
import { tolerant } from '../../../kit/src/index.js';
import { ID_PATTERN, MAX_CONTENT, URI_REFERENCE } from './questions.js';

export const INGEST_LIMITS = {
  questions: 500,
  groups: 500,
  warnings: 5000,
  options: 8,
  subItems: 8,
  media: 100,
  formulas: 200,
  jsonDepth: 16,
} as const;

// Empty strings are accepted wherever the OpenAPI document does not forbid them (parsers emit them
// for "none"); the fields that must carry text say so with `.invalid('').invalid('').pattern(nonBlank)`.
const str = (max: number) =>
  Joi.string()
    .allow('')
    .custom((value: string, helpers) =>
      [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
    );
const nonBlank = /\S/;
const id = Joi.string().pattern(ID_PATTERN);

// Stored as MongoDB documents: a key starting with `$`, holding a dot or a NUL could be read as an
// operator or a path, so such keys are refused, and so is nesting past the depth limit.
const badKey = (k: string) => k.startsWith('$') || k.includes('.') || k.includes('\0');

function unsafeKey(value: unknown, depth: number): string | null {
  if (depth > INGEST_LIMITS.jsonDepth) return 'is nested too deeply';
  if (value === null || typeof value !== 'object') return null;
  const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
  for (const [k, v] of entries) {
    if (badKey(k)) return 'has a key that starts with $ or holds a dot';
    const inner = unsafeKey(v, depth + 1);
    if (inner) return inner;
  }
  return null;
}

const safeObject = () =>
  Joi.object()
    .unknown(true)
    .custom((value: unknown, helpers) => {
      const problem = unsafeKey(value, 0);
      return problem ? helpers.message({ custom: `{{#label}} ${problem}` }) : value;
    });

// A media reference is a reference: a `data:` URL would be the bytes themselves.
const mediaUrl = str(2000)
  .pattern(URI_REFERENCE)
  .pattern(/^data:/i, { invert: true, name: 'reference (not a data: URL)' });

const option = Joi.object({
  label: Joi.string()
    .pattern(/^[A-Ha-h]$/)
    .required(),
  content: str(MAX_CONTENT).allow('').required(),
  is_correct: Joi.boolean(),
});
const subItem = Joi.object({
  label: Joi.string()
    .pattern(/^[A-Ha-h]$/)
    .required(),
  content: str(MAX_CONTENT).allow('').required(),
  correct_boolean: Joi.boolean().allow(null),
});
const formula = Joi.object({
  latex: str(MAX_CONTENT).allow(''),
  html: str(MAX_CONTENT).allow(''),
  mathml: str(MAX_CONTENT).allow(''),
}).or('latex', 'html', 'mathml');
const media = Joi.object({
  media_asset_id: id.allow(null),
  url: mediaUrl,
  object_key: str(1000),
  content_type: str(100),
  kind: str(50),
  index: Joi.number().integer().min(0).max(1_000_000),
  width: Joi.number().integer().min(0).max(100000),
  height: Joi.number().integer().min(0).max(100000),
  alt: str(1000).allow(''),
  // Named so that it stays refused: inline bytes are never a reference (the tolerant body would drop it).
  data: Joi.forbidden(),
}).or('media_asset_id', 'url', 'object_key');
const correctAnswer = Joi.alternatives(
  str(1000).allow(''),
  Joi.array().items(str(1000)).max(26),
  // Closed on purpose: the tolerant reader must not drop a key outside A..H, it is refused.
  Joi.object()
    .pattern(/^[A-Ha-h]$/, Joi.alternatives(Joi.boolean(), str(20)))
    .unknown(false),
).allow(null);

// Fields a legacy parser adds are dropped by the tolerant body (never stored); the fields we read are checked.
const question = Joi.object({
  id: str(200).invalid('').pattern(nonBlank).required(),
  number: Joi.number().integer().min(0).max(1_000_000),
  part: str(20).allow(null, ''),
  group_id: str(200).allow(null),
  type: str(64),
  preset_code: str(64),
  template_code: str(64),
  type_confidence: Joi.number().min(0).max(1),
  review_reason: str(50).allow(null),
  points: Joi.number().min(0).max(1000).allow(null),
  content: str(MAX_CONTENT).allow('').required(),
  options: Joi.array()
    .items(option)
    .max(INGEST_LIMITS.options)
    .unique((a, b) => a.label.toUpperCase() === b.label.toUpperCase()),
  sub_items: Joi.array()
    .items(subItem)
    .max(INGEST_LIMITS.subItems)
    .unique((a, b) => a.label.toUpperCase() === b.label.toUpperCase()),
  correct_answer: correctAnswer,
  correct_answer_numeric: Joi.number().min(-1e15).max(1e15).allow(null),
  solution: str(MAX_CONTENT).allow(null, ''),
  formulas: Joi.array().items(formula).max(INGEST_LIMITS.formulas),
  media: Joi.array().items(media).max(INGEST_LIMITS.media),
  source_location: safeObject().allow(null),
});

const group = Joi.object({
  group_id: str(200).invalid('').pattern(nonBlank).required(),
  // Empty is what the document allows: an unknown kind is kept as grouping metadata, no parent.
  kind: str(50).allow(''),
  parent_group_id: str(200).allow(null, ''),
  part: str(20).allow(null, ''),
  title: str(1000).allow(''),
  from: Joi.number().integer().min(0).max(1_000_000).allow(null),
  to: Joi.number().integer().min(0).max(1_000_000).allow(null),
  content: str(MAX_CONTENT).allow(''),
});

const warning = Joi.object({
  // The parser's own diagnostics: kept as sent, an empty code included (the document allows it).
  code: str(100).allow('').required(),
  message: str(2000).allow('').required(),
  question_id: str(200),
});

// A tolerant reader (the parser's output is internal): members the schema does not name are dropped
// at every depth, never refused nor stored; stats, source_location and sourceMetadataJson stay free.
export const ingestBody = tolerant(
  Joi.object({
    document_id: str(200).invalid('').pattern(nonBlank).required(),
    latency_ms: Joi.number().min(0).max(1e15).required(),
    questions: Joi.array().items(question).min(1).max(INGEST_LIMITS.questions).unique('id').required(),
    groups: Joi.array().items(group).max(INGEST_LIMITS.groups),
    warnings: Joi.array().items(warning).max(INGEST_LIMITS.warnings).required(),
    stats: safeObject().required(),
    subjectId: id,
    gradeLevel: Joi.number().integer().min(1).max(12),
    sourceFileName: str(500).invalid('').pattern(nonBlank),
    sourceImportJobId: id,
    sourceMetadataJson: safeObject(),
    tags: Joi.array().items(str(200).invalid('').pattern(nonBlank)).max(50),
  }),
);
