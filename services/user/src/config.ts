import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { portOf } from '../../registry.js';

export interface UserConfig extends CommonConfig {
  MONGODB_DB: string;
  /** Consumer group of identity.user-changed.v1 (the catalogue's consumer name by default). */
  USER_EVENTS_GROUP: string;
}

export const userConfigSchema = Joi.object<UserConfig>({
  ...commonConfig,
  PORT: Joi.number().port().default(portOf('user')),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_users'),
  USER_EVENTS_GROUP: Joi.string()
    .pattern(/^[A-Za-z0-9._-]{1,100}$/)
    .default('user'),
});
