import Joi from 'joi';
import { documentedAs, named } from '../../../kit/src/http/index.js';
import type { ScopeQuery } from '../domain/questions/scope.js';
import type { BlueprintRuleFields } from '../domain/blueprint/plan.js';
import { CORE_TYPES, TAXONOMY_FIELDS, type TaxonomyField } from '../domain/vocabulary.js';
import { FLAG_VALUES } from './catalog.js';
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

/** One rule as sent: a count and the filters that narrow it. */
type RuleBody = Partial<Record<TaxonomyField, string>> & BlueprintRuleFields;

const rule = named(
  'BlueprintRule',
  Joi.object<RuleBody, true>({
    count: int(1, BLUEPRINT_LIMITS.maxCountPerRule)
      .required()
      .description('How many questions this rule takes (1..50; a rule needing more is two rules).'),
    subjectId: id,
    gradeLevel: int(1, 12),
    ...(Object.fromEntries(TAXONOMY_FIELDS.map((f) => [f, id])) as Record<TaxonomyField, Joi.StringSchema>),
    customTypeId: id,
    type: Joi.string()
      .valid(...CORE_TYPES)
      .description('One core type; not together with `types`.'),
    types: Joi.array()
      .items(Joi.string().valid(...CORE_TYPES))
      .min(1)
      .max(CORE_TYPES.length)
      .unique()
      .description('Any of these core types; not together with `type`.'),
    difficulty: Joi.string()
      .valid(...DIFFICULTIES)
      .description('Not together with `difficulties`.'),
    difficulties: Joi.array()
      .items(Joi.string().valid(...DIFFICULTIES))
      .min(1)
      .max(DIFFICULTIES.length)
      .unique()
      .description('Any of these; not together with `difficulty`.'),
    requireGrouped: Joi.boolean()
      .strict()
      .description(
        'true: only questions that belong to a question group (a shared passage); false: only standalone questions; absent: either.',
      ),
    excludeQuestionIds: idList(BLUEPRINT_LIMITS.maxExcludePerRule).description(
      "Never selected by this rule (in addition to the request's list and earlier rules' picks).",
    ),
  })
    // One spelling per filter: a rule naming both would have to pick one silently.
    .oxor('type', 'types')
    .oxor('difficulty', 'difficulties')
    .description(
      'One blueprint rule. Every filter given must match (AND); a filter left out does not narrow. The scope, status PUBLISHED and the exclusions always apply.',
    ),
);

// Length in code points, as the OpenAPI document's maxLength counts them.
const seedString = Joi.string()
  .min(1)
  .custom((value: string, helpers) =>
    [...value].length > BLUEPRINT_LIMITS.maxSeedLength
      ? helpers.error('string.max', { limit: BLUEPRINT_LIMITS.maxSeedLength })
      : value,
  );

/** The selection request as sent. */
type BlueprintBody = {
  rules: RuleBody[];
  excludeQuestionIds?: string[];
  randomSeed?: string | number;
  requireComplete?: boolean;
};

export const blueprintBody = named(
  'BlueprintRequest',
  Joi.object<BlueprintBody, true>({
    rules: Joi.array()
      .items(rule.required())
      .min(1)
      .max(BLUEPRINT_LIMITS.maxRules)
      .required()
      .description('Evaluated in order (at most 20 rules x 50 = 1,000 questions).'),
    excludeQuestionIds: idList(BLUEPRINT_LIMITS.maxExclude).description(
      'Never selected by any rule (for example the questions an exam already holds).',
    ),
    randomSeed: Joi.alternatives<string | number>(
      documentedAs(seedString, { type: 'string', minLength: 1, maxLength: BLUEPRINT_LIMITS.maxSeedLength }),
      Joi.number().strict().integer().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
    ).description(
      'Present: a deterministic seeded order (see x-decisions). The integer 7 and the string "7" are the same seed.',
    ),
    requireComplete: Joi.boolean()
      .strict()
      .description(
        'true: a rule that cannot be filled is 409 BLUEPRINT_INCOMPLETE (with the per-rule counts) instead of 200 with complete=false.',
      ),
  }),
);

export const blueprintQuery = Joi.object<ScopeQuery, true>({
  organizationId: id.description('Tenant scope for reads when X-Organization-Id is absent.'),
  allOrgs: Joi.string()
    .valid(...FLAG_VALUES)
    .description('1 or true: every organization; ADMIN only (403 otherwise).'),
});
