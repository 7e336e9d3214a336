import Joi from 'joi';
import { documented, documentedAs, named, tolerant } from '../../../kit/src/http/index.js';
import type * as t from '../domain/ingest/types.js';
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
  documented(
    Joi.string()
      .allow('')
      .custom((value: string, helpers) =>
        [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
      ),
    { maxLength: max },
  );
const nonBlank = /\S/;
const TOLERANT =
  'A tolerant reader (internal body): members not named here are ignored at every depth, never refused and never stored; named members keep their types and limits.';
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
  documented(
    Joi.object()
      .unknown(true)
      .custom((value: unknown, helpers) => {
        const problem = unsafeKey(value, 0);
        return problem ? helpers.message({ custom: `{{#label}} ${problem}` }) : value;
      }),
    // What the document can state of the rule: the keys of the top level (depth is in the text).
    { propertyNames: { pattern: '^(?!\\$)[^.\\u0000]*$' } },
  ).description(
    'Free JSON; keys starting with $ or holding a dot or NUL, and nesting past 16 levels, are refused (400).',
  );

// A media reference is a reference: a `data:` URL would be the bytes themselves.
const mediaUrl = documented(
  str(2000)
    .pattern(URI_REFERENCE)
    .pattern(/^data:/i, { invert: true, name: 'reference (not a data: URL)' }),
  // Both patterns in one: a URI reference that does not begin with data:.
  { maxLength: 2000, pattern: `^(?![Dd][Aa][Tt][Aa]:)${URI_REFERENCE.source.slice(1)}` },
);

const option = named(
  'IngestOption',
  Joi.object<t.IngestOption, true>({
    label: Joi.string()
      .pattern(/^[A-Ha-h]$/)
      .required(),
    content: str(MAX_CONTENT).allow('').required(),
    is_correct: Joi.boolean().description('Legacy: marks the option correct in addition to correct_answer.'),
  }),
);
const subItem = named(
  'IngestSubItem',
  Joi.object<t.IngestSubItem, true>({
    label: Joi.string()
      .pattern(/^[A-Ha-h]$/)
      .required(),
    content: str(MAX_CONTENT).allow('').required(),
    correct_boolean: Joi.boolean().allow(null),
  }),
);
const formula = named(
  'IngestFormula',
  Joi.object<t.IngestFormula, true>({
    latex: str(MAX_CONTENT).allow(''),
    html: str(MAX_CONTENT).allow(''),
    mathml: str(MAX_CONTENT).allow(''),
  })
    .or('latex', 'html', 'mathml')
    .description('A formula carries at least one of latex, html or mathml.'),
);
const media = named(
  'IngestMedia',
  Joi.object<t.IngestMedia & { data?: undefined }, true>({
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
    data: Joi.string().forbidden().description('Refused (400): inline bytes are never a media reference.'),
  })
    .or('media_asset_id', 'url', 'object_key')
    .description(
      "A reference to the document service's object; no bytes (a `data` member or a `data:` URL is 400; other members not named here are ignored, never stored). A reference names at least one of media_asset_id, url or object_key.",
    ),
);
const labelMap = documentedAs(
  Joi.object()
    .pattern(/^[A-Ha-h]$/, Joi.alternatives(Joi.boolean(), str(20)))
    .unknown(false),
  {
    type: 'object',
    propertyNames: { pattern: '^[A-Ha-h]$' },
    additionalProperties: { anyOf: [{ type: 'boolean' }, { type: 'string', maxLength: 20 }] },
  },
);
const correctAnswer = Joi.alternatives<t.CorrectAnswer>(
  str(1000).allow(''),
  Joi.array().items(str(1000)).max(26),
  // Closed on purpose: the tolerant reader must not drop a key outside A..H, it is refused.
  labelMap,
)
  .allow(null)
  .description(
    'A label (`B`), labels (`["A","C"]`, `A, C`, `AC`), a boolean map `{a: true, b: "Sai"}`, the compact `a:Đúng;b:Sai;c:Đúng;d:Sai`, or short-answer text.',
  );

const SAME_LABEL = 'Labels are unique, compared without case (400 otherwise).';

// Fields a legacy parser adds are dropped by the tolerant body (never stored); the fields we read are checked.
const question = named(
  'IngestQuestion',
  Joi.object<t.IngestQuestion, true>({
    id: str(200).invalid('').pattern(nonBlank).required(),
    number: Joi.number().integer().min(0).max(1_000_000),
    part: str(20).allow(null, ''),
    group_id: str(200).allow(null),
    type: str(64).description('Parser type or legacy code; see x-decisions for the map.'),
    preset_code: str(64),
    template_code: str(64),
    type_confidence: Joi.number().min(0).max(1),
    review_reason: str(50).allow(null),
    points: Joi.number().min(0).max(1000).allow(null),
    content: str(MAX_CONTENT).allow('').required(),
    options: Joi.array()
      .items(option)
      .max(INGEST_LIMITS.options)
      .unique((a: t.IngestOption, b: t.IngestOption) => a.label.toUpperCase() === b.label.toUpperCase())
      .description(SAME_LABEL),
    sub_items: Joi.array()
      .items(subItem)
      .max(INGEST_LIMITS.subItems)
      .unique((a: t.IngestSubItem, b: t.IngestSubItem) => a.label.toUpperCase() === b.label.toUpperCase())
      .description(SAME_LABEL),
    correct_answer: correctAnswer,
    correct_answer_numeric: Joi.number().min(-1e15).max(1e15).allow(null),
    solution: str(MAX_CONTENT).allow(null, ''),
    formulas: Joi.array().items(formula).max(INGEST_LIMITS.formulas),
    media: Joi.array().items(media).max(INGEST_LIMITS.media),
    source_location: safeObject().allow(null),
  }).description(
    'A QAS question item (document-import QasQuestion); other fields a legacy parser adds are accepted and ignored. ' +
      TOLERANT,
  ),
);

const group = named(
  'IngestGroup',
  Joi.object<t.IngestGroup, true>({
    group_id: str(200).invalid('').pattern(nonBlank).required(),
    // Empty is what the document allows: an unknown kind is kept as grouping metadata, no parent.
    kind: str(50).allow(''),
    parent_group_id: str(200).allow(null, ''),
    part: str(20).allow(null, ''),
    title: str(1000).allow(''),
    from: Joi.number().integer().min(0).max(1_000_000).allow(null),
    to: Joi.number().integer().min(0).max(1_000_000).allow(null),
    content: str(MAX_CONTENT).allow(''),
  }).description(TOLERANT),
);

const warning = named(
  'IngestWarning',
  Joi.object<t.IngestWarning, true>({
    // The parser's own diagnostics: kept as sent, an empty code included (the document allows it).
    code: str(100).allow('').required(),
    message: str(2000).allow('').required(),
    question_id: str(200),
  }).description(TOLERANT),
);

// A tolerant reader (the parser's output is internal): members the schema does not name are dropped
// at every depth, never refused nor stored; stats, source_location and sourceMetadataJson stay free.
export const ingestBody = named(
  'IngestRequest',
  tolerant(
    Joi.object<t.IngestInput, true>({
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
  ).description(
    "The DOCX parser's QAS output (document-import openapi.json QasOutput) plus the caller's fields. Question ids and group ids must be unique. " +
      TOLERANT,
  ),
);
