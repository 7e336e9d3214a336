import Joi from 'joi';
import { named } from '../../../kit/src/http/index.js';
import { ID_PATTERN } from '../domain/vocabulary.js';
import type { Selection } from '../domain/deletion/impact.js';
import { MAX_JOB_IDS, MAX_SYNC_IDS } from '../domain/deletion/plan.js';

const id = Joi.string().pattern(ID_PATTERN);
const ids = (max: number) => Joi.array().items(id.required()).min(1).max(max);

/** `ids` or `mode: all`, never both. */
const selection = (name: string, max: number) =>
  named(
    name,
    Joi.object<Selection, true>({ ids: ids(max), mode: Joi.string().valid('all') })
      .xor('ids', 'mode')
      .description(`Either \`ids\` (1 to ${max}, deduplicated) or \`mode: all\`, never both.`),
  ).required();

/** The permanent-delete impact preview's body: 1 to 100 ids, or every archived question. */
export const impactBody = selection('DeletionSelection', MAX_SYNC_IDS);
/** A permanent-delete job's body: 1 to 5,000 ids, or every archived question. */
export const jobBody = selection('DeletionJobRequest', MAX_JOB_IDS);
/** The synchronous permanent delete's body: 1 to 100 ids. */
export const permanentDeleteBody = named(
  'DeletionRequest',
  Joi.object<{ ids: string[] }, true>({
    ids: ids(MAX_SYNC_IDS)
      .required()
      .description('1 to 100 ids as sent (the limit counts the list before deduplication).'),
  }),
).required();
/** A permanent-delete job's id in the path. */
export const jobIdParams = Joi.object<{ id: string }, true>({
  id: id.required().description('The job id returned by POST /v1/questions/permanent-delete/jobs'),
});
