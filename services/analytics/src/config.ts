import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { outboxConfig } from '../../kit/src/data/index.js';
import { portOf } from '../../registry.js';

export interface AnalyticsConfig extends CommonConfig {
  MONGODB_DB: string;
  OUTBOX_PUBLISHER: 'none' | 'kafka';
  /** `on`: with KAFKA_BROKERS, attempt.graded.v1 feeds the result snapshots; `off` for HTTP-only runs. */
  ANALYTICS_CONSUMER: 'on' | 'off';
  ANALYTICS_CONSUMER_GROUP: string;
}

export const analyticsConfigSchema = Joi.object<AnalyticsConfig>({
  ...commonConfig,
  ...outboxConfig,
  PORT: Joi.number().port().default(portOf('analytics')),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_analytics'),
  ANALYTICS_CONSUMER: Joi.string().valid('on', 'off').default('on'),
  ANALYTICS_CONSUMER_GROUP: Joi.string()
    .pattern(/^[A-Za-z0-9._-]{1,100}$/)
    .default('analytics'),
});
