import Joi from 'joi';
import { ID_PATTERN } from '../../schemas/questions.js';
import { MAX_JOB_IDS, MAX_SYNC_IDS } from './plan.js';

const id = Joi.string().pattern(ID_PATTERN);
const ids = (max: number) => Joi.array().items(id.required()).min(1).max(max);

/** `ids` or `mode: all`, never both. */
const selection = (max: number) =>
  Joi.object({ ids: ids(max), mode: Joi.string().valid('all') })
    .xor('ids', 'mode')
    .required();

export const impactBody = selection(MAX_SYNC_IDS);
export const jobBody = selection(MAX_JOB_IDS);
export const permanentDeleteBody = Joi.object({ ids: ids(MAX_SYNC_IDS).required() }).required();
export const jobIdParams = Joi.object({ id: id.required() });
