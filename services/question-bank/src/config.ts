import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { outboxConfig } from '../../kit/src/data/index.js';
import { portOf } from '../../registry.js';

export interface QuestionBankConfig extends CommonConfig {
  MONGODB_DB: string;
  OUTBOX_PUBLISHER: 'none' | 'kafka';
}

export const questionBankConfigSchema = Joi.object<QuestionBankConfig>({
  ...commonConfig,
  ...outboxConfig,
  PORT: Joi.number().port().default(portOf('question-bank')),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_question_bank'),
});
