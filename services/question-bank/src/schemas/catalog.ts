import Joi from 'joi';
import { pagingKeys, tolerant, trimmedString } from '../../../kit/src/index.js';
import { LEGACY_TYPE_MAP } from '../domain/ingest/type-map.js';
import { FOLDER_VISIBILITIES, TAXONOMY_KINDS, TYPE_STATUSES } from '../store/catalog-models.js';

// The same alphabet the kit allows in actor headers, so ids round-trip through paths and headers.
export const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
export const MAX_BULK_IDS = 100;
export const MAX_BACKFILL_ITEMS = 500;

const id = Joi.string().pattern(ID_PATTERN);

/**
 * Length in code points, as the OpenAPI document's minLength/maxLength count them (joi's own
 * min/max count UTF-16 units, so an emoji would count twice).
 */
function chars(min: number, max: number): Joi.StringSchema {
  return Joi.string().custom((value: string, helpers) => {
    const n = [...value].length;
    if (n < min) return helpers.error('string.min', { limit: min });
    return n > max ? helpers.error('string.max', { limit: max }) : value;
  });
}
// Exactly these four spellings, as the document lists them; anything else is a 400, not a guess.
// (A pattern, not valid(): joi returns valid() values before running custom().)
const flag = Joi.string()
  .pattern(/^(1|0|true|false)$/)
  .custom((v: string) => v === '1' || v === 'true');
// JSON numbers only: "5" in a body is a type error, not a number.
const int = (min: number, max: number) => Joi.number().strict().integer().min(min).max(max);
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const dateTime = Joi.string()
  .pattern(DATE_TIME)
  .custom((v: string, helpers) => {
    const t = Date.parse(v);
    return Number.isNaN(t) ? helpers.error('date.base') : new Date(t);
  });
const q = chars(0, 200).allow('');
// Trimmed, then 1..max characters: the limit counts what is stored, not the spaces around it.
const text = (max: number) => trimmedString(1, max);
const json = Joi.alternatives().try(Joi.object().unknown(true), Joi.array()).allow(null);
const count = int(0, Number.MAX_SAFE_INTEGER).required();
const ownerOrg = id.allow(null);

const scopeQuery = { organizationId: id, allOrgs: flag };

export const idParams = Joi.object({ id: id.required() });

export const listGroupsQuery = Joi.object({ ...pagingKeys(), ...scopeQuery, q });
export const createGroupBody = Joi.object({
  title: text(500).required(),
  contentText: chars(1, 100_000).required(),
  contentJson: json,
  mediaJson: json,
  sourceMetadataJson: Joi.object().unknown(true).allow(null),
});

export const listFoldersQuery = Joi.object({ ...pagingKeys(), ...scopeQuery });
const visibility = Joi.string().valid(...FOLDER_VISIBILITIES);
export const createFolderBody = Joi.object({
  name: text(200).required(),
  parentId: id.allow('', null),
  visibility,
});
export const patchFolderBody = Joi.object({ name: text(200), parentId: id.allow('', null), visibility });

const typeCode = Joi.string().pattern(/^[A-Za-z0-9_]{1,64}$/);
const typeStatus = Joi.string().valid(...TYPE_STATUSES);
// A core type, or a legacy preset code normalized to its core type (the contract); exactly the
// listed spellings, as the document's enum has them. (custom(), not valid(): see `flag`.)
export const BASE_TYPE_CODES = [...LEGACY_TYPE_MAP.keys()];
const baseType = Joi.string().custom((v: string, helpers) =>
  LEGACY_TYPE_MAP.has(v)
    ? LEGACY_TYPE_MAP.get(v)
    : helpers.message({ custom: '{{#label}} must be a core type or a legacy preset code' }),
);
export const listTypesQuery = Joi.object({ ...scopeQuery, summary: flag, status: typeStatus, q });
export const createTypeBody = Joi.object({
  code: typeCode.required(),
  name: text(200).required(),
  baseType: baseType.required(),
  status: typeStatus,
});
export const patchTypeBody = Joi.object({
  code: typeCode,
  name: text(200),
  baseType,
  status: typeStatus,
  isSystem: Joi.boolean(),
});
const bulkIds = Joi.array().items(id.required()).min(1).max(MAX_BULK_IDS).required();
export const bulkTypeStatusBody = Joi.object({ ids: bulkIds, status: typeStatus.required() });
export const bulkTypeDeleteBody = Joi.object({ ids: bulkIds });

export const listTaxonomyQuery = Joi.object({
  ...pagingKeys({ defaultLimit: 100, maxLimit: 500 }),
  ...scopeQuery,
  kind: Joi.string().valid(...TAXONOMY_KINDS),
  status: chars(1, 32),
  q,
  includeGlobal: flag,
});

const items = (item: Joi.ObjectSchema) => Joi.array().items(item).max(MAX_BACKFILL_ITEMS);

// The four read-model backfills are tolerant readers: members the schema does not name are dropped
// at every depth, never refused nor stored; the named ones keep their rules. The contract names one
// spelling for each item field (questionId, examId, ...), so no alias is read.

export const putTaxonomyBody = tolerant(
  Joi.object({
    items: items(
      Joi.object({
        id: id.required(),
        kind: Joi.string()
          .valid(...TAXONOMY_KINDS)
          .required(),
        code: text(200).required(),
        name: text(500).required(),
        organizationId: ownerOrg,
        status: Joi.string()
          .max(32)
          .pattern(/^[A-Z_]+$/),
        numericLevel: int(0, 1000).allow(null),
        engineDifficulty: chars(1, 32).allow(null),
        subjectId: text(200).allow(null),
        gradeId: text(200).allow(null),
        curriculumId: text(200).allow(null),
      }),
    ).required(),
  }),
);

export const putUsageCountsBody = tolerant(
  Joi.object({
    items: items(
      Joi.object({
        questionId: id.required(),
        organizationId: ownerOrg,
        examItems: count,
        attemptItems: count,
        answers: count,
      }),
    ).required(),
  }),
);

export const putRelationRefsBody = tolerant(
  Joi.object({
    users: items(
      Joi.object({
        id: id.required(),
        fullName: text(200).required(),
        email: chars(1, 320).required(),
        organizationId: ownerOrg,
      }),
    ),
    organizations: items(
      Joi.object({
        id: id.required(),
        name: text(200).required(),
        slug: text(200).required(),
        organizationId: ownerOrg,
      }),
    ),
  })
    // An empty body is a mistake, not a request to write nothing.
    .or('users', 'organizations'),
);

export const putExamRefsBody = tolerant(
  Joi.object({
    exams: items(
      Joi.object({
        questionId: id.required(),
        examId: id.required(),
        title: text(500).required(),
        status: text(32).required(),
        createdAt: dateTime.required(),
        organizationId: ownerOrg,
      }),
    ).required(),
  }),
);
