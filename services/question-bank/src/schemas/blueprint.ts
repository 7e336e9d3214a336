import Joi from 'joi';
import { CORE_TYPES, TAXONOMY_FIELDS } from '../store/question-models.js';
import { DIFFICULTIES, ID_PATTERN } from './questions.js';

// The limits this service chose (the contract names none); the OpenAPI fragment states the same.
// The total (rules x count, at most 1,000 snapshots in one answer) follows from the two bounds, so
// a JSON Schema can state every limit; a rule that needs more than 50 is two rules (the second
// continues where the first stopped, as no question is taken twice).
export const BLUEPRINT_LIMITS = {
  maxRules: 20,
  maxCountPerRule: 50,
  maxExcludePerRule: 500,
  maxExclude: 2000,
  maxSeedLength: 200,
} as const;

const id = Joi.string().pattern(ID_PATTERN);
// Body numbers and booleans are strict: "5" is not a count, "true" is not a flag.
const int = (min: number, max: number) => Joi.number().strict().integer().min(min).max(max);
const idList = (max: number) => Joi.array().items(id).max(max);

const rule = Joi.object({
  count: int(1, BLUEPRINT_LIMITS.maxCountPerRule).required(),
  subjectId: id,
  gradeLevel: int(1, 12),
  ...Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, id])),
  customTypeId: id,
  type: Joi.string().valid(...CORE_TYPES),
  types: Joi.array()
    .items(Joi.string().valid(...CORE_TYPES))
    .min(1)
    .max(CORE_TYPES.length)
    .unique(),
  difficulty: Joi.string().valid(...DIFFICULTIES),
  difficulties: Joi.array()
    .items(Joi.string().valid(...DIFFICULTIES))
    .min(1)
    .max(DIFFICULTIES.length)
    .unique(),
  requireGrouped: Joi.boolean().strict(),
  excludeQuestionIds: idList(BLUEPRINT_LIMITS.maxExcludePerRule),
})
  // One spelling per filter: a rule naming both would have to pick one silently.
  .oxor('type', 'types')
  .oxor('difficulty', 'difficulties');

// Length in code points, as the OpenAPI document's maxLength counts them.
const seedString = Joi.string()
  .min(1)
  .custom((value: string, helpers) =>
    [...value].length > BLUEPRINT_LIMITS.maxSeedLength
      ? helpers.error('string.max', { limit: BLUEPRINT_LIMITS.maxSeedLength })
      : value,
  );

export const blueprintBody = Joi.object({
  rules: Joi.array().items(rule.required()).min(1).max(BLUEPRINT_LIMITS.maxRules).required(),
  excludeQuestionIds: idList(BLUEPRINT_LIMITS.maxExclude),
  randomSeed: Joi.alternatives(
    seedString,
    Joi.number().strict().integer().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  ),
  requireComplete: Joi.boolean().strict(),
});

const flag = Joi.string().valid('1', 'true', '0', 'false');

export const blueprintQuery = Joi.object({ organizationId: id, allOrgs: flag });
