import Joi from 'joi';

/** The operator's environment; main() validates it once with the kit's loadConfig. */
export interface OperatorConfig {
  KUBECONFIG?: string;
  KAFKA_BROKERS: string;
  OPERATOR_NAMESPACE?: string;
  RESYNC_SECONDS: number;
  WATCH_TIMEOUT_SECONDS: number;
  QUEUE_STATUS_INTERVAL_SECONDS: number;
  PORT: number;
  LEADER_ELECTION: boolean;
  LEASE_NAME: string;
  LEASE_NAMESPACE?: string;
  LEASE_DURATION_SECONDS: number;
  POD_NAME?: string;
  LOG_LEVEL: string;
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const operatorConfigSchema = Joi.object<OperatorConfig>({
  KUBECONFIG: Joi.string().optional(),
  KAFKA_BROKERS: Joi.string()
    .pattern(/^[^,\s]+(,[^,\s]+)*$/)
    .required(),
  OPERATOR_NAMESPACE: Joi.string().max(63).pattern(dnsLabel).optional(),
  RESYNC_SECONDS: Joi.number().integer().min(1).max(3600).default(5),
  // Each watch asks the server to end it after this long; the watchdog's silence bound is this plus 30 s.
  WATCH_TIMEOUT_SECONDS: Joi.number().integer().min(5).max(1800).default(60),
  // Status changes that only move queue figures are written at most once per this many seconds.
  QUEUE_STATUS_INTERVAL_SECONDS: Joi.number().integer().min(0).max(3600).default(5),
  PORT: Joi.number().port().default(4010),
  LEADER_ELECTION: Joi.boolean().default(true),
  LEASE_NAME: Joi.string().max(253).default('docx-import-operator'),
  LEASE_NAMESPACE: Joi.string().max(63).pattern(dnsLabel).optional(),
  LEASE_DURATION_SECONDS: Joi.number().integer().min(2).max(300).default(15),
  POD_NAME: Joi.string().optional(),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
});

export function brokerList(config: Pick<OperatorConfig, 'KAFKA_BROKERS'>): string[] {
  return config.KAFKA_BROKERS.split(',');
}

/**
 * Leader timings derived from the lease duration, in client-go's proportions (15 s / 10 s / 2 s),
 * in milliseconds so that even a 2 s lease keeps retry < renew deadline < lease duration.
 */
export function leaderTimings(durationSec: number): { renewDeadlineMs: number; retryMs: number } {
  return {
    renewDeadlineMs: Math.floor((durationSec * 2000) / 3),
    retryMs: Math.floor((durationSec * 1000) / 7.5),
  };
}
