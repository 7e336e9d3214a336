import Joi from 'joi';
import type { PageOptions } from '../../../kit/src/core/index.js';
import {
  dateTimeString,
  documented,
  documentedAs,
  named,
  pagingKeys,
  tolerant,
  trimmedString,
  TRIMMED_WHITESPACE,
} from '../../../kit/src/http/index.js';
import type { CreateFolderInput, PatchFolderInput } from '../domain/catalog/folders.js';
import type { ListGroupsQuery } from '../domain/catalog/groups.js';
import type * as rm from '../domain/catalog/read-models.js';
import type { CreateTypeInput, ListTypesQuery, PatchTypeInput, TypeStatus } from '../domain/catalog/types.js';
import { LEGACY_TYPE_MAP } from '../domain/ingest/type-map.js';
import { FOLDER_VISIBILITIES, ID_PATTERN, TAXONOMY_KINDS, TYPE_STATUSES } from '../domain/vocabulary.js';

export { ID_PATTERN };
export const MAX_BULK_IDS = 100;
export const MAX_BACKFILL_ITEMS = 500;

const id = Joi.string().pattern(ID_PATTERN);

/**
 * Length in code points, as the OpenAPI document's minLength/maxLength count them (joi's own
 * min/max count UTF-16 units, so an emoji would count twice).
 */
function chars(min: number, max: number): Joi.StringSchema {
  const schema = Joi.string().custom((value: string, helpers) => {
    const n = [...value].length;
    if (n < min) return helpers.error('string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : value;
  });
  return documented(schema, { ...(min > 0 ? { minLength: min } : {}), maxLength: max });
}
/** The four spellings a query flag takes, as the document lists them. */
export const FLAG_VALUES = ['1', '0', 'true', 'false'];
// Exactly these four spellings; anything else is a 400, not a guess. The handler sees a boolean.
// (A pattern, not valid(): joi returns valid() values before running custom().)
const flag = documentedAs(
  Joi.string()
    .pattern(/^(1|0|true|false)$/)
    .custom((v: string) => v === '1' || v === 'true'),
  { type: 'string', enum: FLAG_VALUES },
) as unknown as Joi.BooleanSchema;
// JSON numbers only: "5" in a body is a type error, not a number.
const int = (min: number, max: number) => Joi.number().strict().integer().min(min).max(max);
const q = chars(0, 200).allow('').description('Literal text (never a pattern), case-insensitive.');
// Trimmed, then 1..max characters: the limit counts what is stored, not the spaces around it.
const text = (max: number) => documented(trimmedString(1, max), { minLength: 1, pattern: oneToMax(max) });

/**
 * trimmedPattern(1, max) as two alternatives (one character, or two edges around the rest), the
 * form the fuzzer's generator reads: its coverage phase cannot build a value for the optional group.
 */
function oneToMax(max: number): string {
  const ws = `[${TRIMMED_WHITESPACE}]*`;
  const edge = `[^${TRIMMED_WHITESPACE}]`;
  return `^${ws}${edge}${ws}$|^${ws}${edge}[\\s\\S]{0,${max - 2}}${edge}${ws}$`;
}
const json = Joi.alternatives().try(Joi.object().unknown(true), Joi.array()).allow(null);
const count = int(0, Number.MAX_SAFE_INTEGER).required();
const ownerOrg = id.allow(null);

/** The read scope a query may restate: X-Organization-Id's organization, or every one (ADMIN). */
export type ScopeQuery = { organizationId?: string; allOrgs?: boolean };
const scopeQuery = {
  organizationId: id.description('Tenant scope for reads when X-Organization-Id is absent.'),
  allOrgs: flag.description('1 or true: every organization; ADMIN only (403 otherwise).'),
};
/** A paged query's page and limit: integers, clamped (pageParams reads them again, unchanged). */
export type Paging = { page: number; limit: number };

/** page and limit: integers clamped to their range, never a 400. */
export function paging(opts: PageOptions = {}): { page: Joi.NumberSchema; limit: Joi.NumberSchema } {
  // pagingKeys' custom rules return clamped integers, whatever was sent.
  const keys = pagingKeys(opts) as { page: Joi.NumberSchema; limit: Joi.NumberSchema };
  const range = opts.defaultLimit
    ? `${opts.defaultLimit}, clamped to 1..${opts.maxLimit}.`
    : '20, clamped to 1..100; absent or non-numeric takes the default (never a 400).';
  return {
    page: keys.page.description(
      'Integer page, default 1, clamped to 1..1000000; absent or non-numeric takes the default (never a 400).',
    ),
    limit: keys.limit.description(`Integer page size, default ${range}`),
  };
}

export const idParams = Joi.object<{ id: string }, true>({ id: id.required() });

export const listGroupsQuery = Joi.object<ListGroupsQuery & Paging, true>({ ...paging(), ...scopeQuery, q });
/** A JSON document field: an object, an array or null. */
type JsonDoc = object | unknown[] | null;
type CreateGroupBody = {
  title: string;
  contentText: string;
  contentJson?: JsonDoc;
  mediaJson?: JsonDoc;
  sourceMetadataJson?: Record<string, unknown> | null;
};
export const createGroupBody = named(
  'CreateQuestionGroup',
  Joi.object<CreateGroupBody, true>({
    title: text(500).required(),
    contentText: chars(1, 100_000).required(),
    contentJson: json,
    mediaJson: json,
    sourceMetadataJson: Joi.object().unknown(true).allow(null),
  }),
);

export const listFoldersQuery = Joi.object<ScopeQuery & Paging, true>({ ...paging(), ...scopeQuery });
const visibility = Joi.string().valid(...FOLDER_VISIBILITIES);
export const createFolderBody = named(
  'CreateQuestionFolder',
  Joi.object<CreateFolderInput, true>({
    name: text(200).required(),
    parentId: id.allow('', null),
    visibility,
  }),
);
export const patchFolderBody = named(
  'PatchQuestionFolder',
  Joi.object<PatchFolderInput, true>({
    name: text(200),
    parentId: id.allow('', null).description('Empty string or null clears the parent.'),
    visibility,
  }),
);

const typeCode = Joi.string().pattern(/^[A-Za-z0-9_]{1,64}$/);
const typeStatus = Joi.string().valid(...TYPE_STATUSES);
// A core type, or a legacy preset code normalized to its core type (the contract); exactly the
// listed spellings, as the document's enum has them. (custom(), not valid(): see `flag`.)
export const BASE_TYPE_CODES = [...LEGACY_TYPE_MAP.keys()];
const baseType = documentedAs(
  Joi.string().custom((v: string, helpers) =>
    LEGACY_TYPE_MAP.has(v)
      ? LEGACY_TYPE_MAP.get(v)
      : helpers.message({ custom: '{{#label}} must be a core type or a legacy preset code' }),
  ),
  { type: 'string', enum: BASE_TYPE_CODES },
).description(
  'A core type, or a legacy preset code, stored as its core type (the mapping is the DOCX ingest one in x-decisions).',
);
export const listTypesQuery = Joi.object<ListTypesQuery, true>({
  ...scopeQuery,
  summary: flag.description('1 or true: status defaults to ACTIVE and usageCount is omitted.'),
  status: typeStatus,
  q,
});
export const createTypeBody = named(
  'CreateQuestionType',
  Joi.object<CreateTypeInput, true>({
    code: typeCode.required().description('Stored uppercased.'),
    name: text(200).required(),
    baseType: baseType.required(),
    status: typeStatus,
  }),
);
export const patchTypeBody = named(
  'PatchQuestionType',
  Joi.object<PatchTypeInput, true>({
    code: typeCode,
    name: text(200),
    baseType,
    status: typeStatus,
    isSystem: Joi.boolean().description('Accepted and ignored.'),
  }).description('Partial. On system definitions (ADMIN only) code, baseType and isSystem are ignored.'),
);
const bulkIds = named(
  'BulkIds',
  Joi.array().items(id.required()).min(1).max(MAX_BULK_IDS).description('1 to 100 ids; duplicates are counted once.'),
).required();
export const bulkTypeStatusBody = named(
  'TypeBulkStatusRequest',
  Joi.object<{ ids: string[]; status: TypeStatus }, true>({ ids: bulkIds, status: typeStatus.required() }),
);
export const bulkTypeDeleteBody = named('TypeBulkDeleteRequest', Joi.object<{ ids: string[] }, true>({ ids: bulkIds }));

export const listTaxonomyQuery = Joi.object<rm.ListTaxonomyQuery & Paging, true>({
  ...paging({ defaultLimit: 100, maxLimit: 500 }),
  ...scopeQuery,
  kind: Joi.string().valid(...TAXONOMY_KINDS),
  status: chars(1, 32),
  q,
  includeGlobal: flag.description('1 or true: global refs (no organization) too.'),
});

// Each item is named as the document names it; the enclosing tolerant() reads it tolerantly too.
const items = <T>(name: string, item: Joi.ObjectSchema<T>) =>
  Joi.array()
    .items(named(name, item.description(TOLERANT)))
    .max(MAX_BACKFILL_ITEMS);
const TOLERANT =
  'A tolerant reader (internal body): members not named here are ignored at every depth, never refused and never stored; named members keep their types and limits.';
const nodeOf = (what: string) =>
  `For a CURRICULUM_NODE: its ${what} (the id or code of that ref); AI classification context matches candidate nodes on it.`;

// The four read-model backfills are tolerant readers: members the schema does not name are dropped
// at every depth, never refused nor stored; the named ones keep their rules. The contract names one
// spelling for each item field (questionId, examId, ...), so no alias is read.

export const putTaxonomyBody = tolerant(
  Joi.object<{ items: rm.TaxonomyRefInput[] }, true>({
    items: items(
      'TaxonomyRefInput',
      Joi.object<rm.TaxonomyRefInput, true>({
        id: id.required(),
        kind: Joi.string()
          .valid(...TAXONOMY_KINDS)
          .required(),
        code: text(200).required(),
        name: text(500).required(),
        organizationId: ownerOrg.description(
          'Defaults to X-Organization-Id; null is a global ref. Another organization or null: ADMIN only.',
        ),
        status: Joi.string()
          .max(32)
          .pattern(/^[A-Z_]+$/)
          .description('Default ACTIVE.'),
        numericLevel: int(0, 1000).allow(null).description('Grade refs.'),
        engineDifficulty: chars(1, 32).allow(null).description('Difficulty refs.'),
        subjectId: text(200).allow(null).description(nodeOf('subject')),
        gradeId: text(200).allow(null).description(nodeOf('grade')),
        curriculumId: text(200).allow(null).description(nodeOf('curriculum')),
      }),
    ).required(),
  }).description(TOLERANT),
);

export const putUsageCountsBody = tolerant(
  Joi.object<{ items: rm.UsageCountInput[] }, true>({
    items: items(
      'UsageCountInput',
      Joi.object<rm.UsageCountInput, true>({
        questionId: id.required(),
        organizationId: ownerOrg,
        examItems: count,
        attemptItems: count,
        answers: count,
      }),
    ).required(),
  }).description(TOLERANT),
);

export const putRelationRefsBody = tolerant(
  Joi.object<{ users?: rm.UserRefInput[]; organizations?: rm.OrganizationRefInput[] }, true>({
    users: items(
      'UserRefInput',
      Joi.object<rm.UserRefInput, true>({
        id: id.required(),
        fullName: text(200).required(),
        email: chars(1, 320).required(),
        organizationId: ownerOrg,
      }),
    ),
    organizations: items(
      'OrganizationRefInput',
      Joi.object<rm.OrganizationRefInput, true>({
        id: id.required(),
        name: text(200).required(),
        slug: text(200).required(),
        organizationId: ownerOrg.description('Defaults to the item id.'),
      }),
    ),
  })
    .description(TOLERANT)
    // An empty body is a mistake, not a request to write nothing.
    .or('users', 'organizations'),
);

export const putExamRefsBody = tolerant(
  Joi.object<{ exams: rm.ExamRefInput[] }, true>({
    exams: items(
      'ExamRefInput',
      Joi.object<rm.ExamRefInput, true>({
        questionId: id.required(),
        examId: id.required(),
        title: text(500).required(),
        status: text(32).required(),
        createdAt: dateTimeString().required(),
        organizationId: ownerOrg,
      }),
    ).required(),
  }).description(TOLERANT),
);
