import Joi from 'joi';
import { TOPICS } from '../../../kafka/topics.js';
import { commonConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { portOf } from '../../registry.js';

export interface NotificationConfig extends CommonConfig {
  MONGODB_DB: string;
  /** `kafka` (default) consumes weak-topic alerts when KAFKA_BROKERS is set; `none` never does. */
  NOTIFICATION_CONSUMER: 'kafka' | 'none';
  NOTIFICATION_WEAK_TOPIC_TOPIC: string;
  NOTIFICATION_CONSUMER_GROUP: string;
  /** Consumer-group session; shorter means a lost member's partitions move sooner. */
  NOTIFICATION_CONSUMER_SESSION_TIMEOUT_MS: number;
}

export const notificationConfigSchema = Joi.object<NotificationConfig>({
  ...commonConfig,
  PORT: Joi.number().port().default(portOf('notification')),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_notifications'),
  NOTIFICATION_CONSUMER: Joi.string().valid('kafka', 'none').default('kafka'),
  NOTIFICATION_WEAK_TOPIC_TOPIC: Joi.string()
    .pattern(/^[A-Za-z0-9._-]{1,200}$/)
    .default(TOPICS.analyticsWeakTopicDetected),
  NOTIFICATION_CONSUMER_GROUP: Joi.string()
    .pattern(/^[A-Za-z0-9._-]{1,200}$/)
    .default('notification'),
  // 6 s is the broker's smallest allowed session (group.min.session.timeout.ms).
  NOTIFICATION_CONSUMER_SESSION_TIMEOUT_MS: Joi.number().integer().min(6000).max(300000).default(30000),
});
