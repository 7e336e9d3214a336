import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { outboxConfig } from '../../kit/src/data/index.js';
import { portOf } from '../../registry.js';

export interface AttemptConfig extends CommonConfig {
  MONGODB_DB: string;
  OUTBOX_PUBLISHER: 'none' | 'kafka';
  /** How often the sweeper grades attempts whose deadline passed; 0 turns it off. */
  ATTEMPT_SWEEP_INTERVAL_MS: number;
  /** Attempts the sweeper submits per pass. */
  ATTEMPT_SWEEP_BATCH: number;
}

export const attemptConfigSchema = Joi.object<AttemptConfig>({
  ...commonConfig,
  ...outboxConfig,
  PORT: Joi.number().port().default(portOf('attempt')),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_attempts'),
  ATTEMPT_SWEEP_INTERVAL_MS: Joi.number().integer().min(0).max(3_600_000).default(5000),
  ATTEMPT_SWEEP_BATCH: Joi.number().integer().min(1).max(1000).default(100),
});
