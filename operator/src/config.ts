import Joi from 'joi';
import { kafkaConfig, type KafkaClientConfig } from '../../services/kit/src/core/index.js';
import { parseSecretFiles } from './controller/secret-files.js';
import type { WorkerPolicy } from './controller/worker-policy.js';

/** The operator's environment; main() validates it once with the kit's loadConfig. */
export interface OperatorConfig extends KafkaClientConfig {
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
  NODE_ENV: 'development' | 'test' | 'production';
  /** Bearer token /metrics requires (required in production). */
  METRICS_TOKEN?: string;
  WORKER_SERVICE_ACCOUNT: string;
  WORKER_IMAGE?: string;
  WORKER_ALLOWED_IMAGES: string;
  WORKER_IMAGE_PULL_SECRETS: string;
  WORKER_CONFIGMAP?: string;
  WORKER_SECRET_ENV: string;
  /** `secretName:key:/etc/edu-platform/...` entries: Secret keys mounted as files in the worker pods. */
  WORKER_SECRET_FILES: string;
  WORKER_HEALTH_PORT: number;
  WORKER_POD_LABELS: string;
  WORKER_RUN_AS_USER?: number;
  WORKER_RUN_AS_GROUP?: number;
  WORKER_FS_GROUP?: number;
  WORKER_TMP_SIZE_LIMIT: string;
  WORKER_MAX_CPU: string;
  WORKER_MAX_MEMORY: string;
  WORKER_MAX_EPHEMERAL_STORAGE: string;
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsName = /[a-z0-9]([-a-z0-9.]*[a-z0-9])?/;
const list = (item: RegExp) => new RegExp(`^(${item.source}(,${item.source})*)?$`);
// Image references and repositories: no spaces, no commas (the list separator).
const imageRef = /[a-zA-Z0-9][-a-zA-Z0-9._/:@]*/;
// ENV_NAME=secret-name:key
const secretRef = /[A-Za-z_][A-Za-z0-9_]*=[a-z0-9][-a-z0-9.]*:[-._a-zA-Z0-9]+/;
// label-key=value (a prefix/name key, an optional value)
const labelPair = /([a-z0-9][-a-z0-9.]*\/)?[A-Za-z0-9][-A-Za-z0-9_.]*=[-A-Za-z0-9_.]*/;
const quantity = Joi.string().pattern(/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|m|k|M|G|T)?$/);
const id = Joi.number().integer().min(1).max(2147483647);

export const operatorConfigSchema = Joi.object<OperatorConfig>({
  KUBECONFIG: Joi.string().optional(),
  // TLS and SASL of the lag reader: the platform's KAFKA_* keys. The topic keys are validated but
  // unused: a DocxImportJob names its physical topic and group.
  ...kafkaConfig,
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
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  METRICS_TOKEN: Joi.string()
    .min(16)
    .when('NODE_ENV', { is: 'production', then: Joi.required(), otherwise: Joi.optional() })
    .messages({ 'any.required': '{{#label}} is required in production' }),
  // The worker pods (controller/worker-policy.ts): what the operator decides, not the job.
  WORKER_SERVICE_ACCOUNT: Joi.string()
    .max(253)
    .pattern(new RegExp(`^${dnsName.source}$`))
    .default('default'),
  WORKER_IMAGE: Joi.string()
    .max(512)
    .pattern(new RegExp(`^${imageRef.source}$`))
    .optional(),
  WORKER_ALLOWED_IMAGES: Joi.string().allow('').max(4096).pattern(list(imageRef)).default(''),
  WORKER_IMAGE_PULL_SECRETS: Joi.string().allow('').pattern(list(dnsName)).default(''),
  WORKER_CONFIGMAP: Joi.string()
    .max(253)
    .pattern(new RegExp(`^${dnsName.source}$`))
    .optional(),
  WORKER_SECRET_ENV: Joi.string().allow('').max(4096).pattern(list(secretRef)).default(''),
  WORKER_SECRET_FILES: Joi.string()
    .allow('')
    .max(4096)
    .default('')
    .custom((value: string, helpers) => {
      const { problems } = parseSecretFiles(value);
      return problems.length > 0 ? helpers.message({ custom: `"WORKER_SECRET_FILES": ${problems.join('; ')}` }) : value;
    }),
  // The port the workers serve /healthz and /readyz on (the worker reads the same variable).
  WORKER_HEALTH_PORT: Joi.number().port().invalid(0).default(8081),
  WORKER_POD_LABELS: Joi.string().allow('').max(4096).pattern(list(labelPair)).default(''),
  WORKER_RUN_AS_USER: id.optional(),
  WORKER_RUN_AS_GROUP: id.optional(),
  WORKER_FS_GROUP: id.optional(),
  WORKER_TMP_SIZE_LIMIT: quantity.default('64Mi'),
  WORKER_MAX_CPU: quantity.default('2'),
  WORKER_MAX_MEMORY: quantity.default('2Gi'),
  WORKER_MAX_EPHEMERAL_STORAGE: quantity.default('1Gi'),
});

const items = (text: string): string[] => (text ? text.split(',') : []);

/** The worker pod policy from the environment (validated by operatorConfigSchema). */
export function workerPolicy(config: OperatorConfig): WorkerPolicy {
  return {
    serviceAccountName: config.WORKER_SERVICE_ACCOUNT,
    defaultImage: config.WORKER_IMAGE,
    allowedImages: items(config.WORKER_ALLOWED_IMAGES),
    imagePullSecrets: items(config.WORKER_IMAGE_PULL_SECRETS),
    configMapName: config.WORKER_CONFIGMAP,
    secretEnv: items(config.WORKER_SECRET_ENV).map((entry) => {
      const [name = '', ref = ''] = entry.split('=');
      const colon = ref.indexOf(':');
      return { name, secret: ref.slice(0, colon), key: ref.slice(colon + 1) };
    }),
    secretFiles: parseSecretFiles(config.WORKER_SECRET_FILES).files,
    healthPort: config.WORKER_HEALTH_PORT,
    podLabels: Object.fromEntries(
      items(config.WORKER_POD_LABELS).map((pair) => [
        pair.slice(0, pair.indexOf('=')),
        pair.slice(pair.indexOf('=') + 1),
      ]),
    ),
    runAsUser: config.WORKER_RUN_AS_USER,
    runAsGroup: config.WORKER_RUN_AS_GROUP,
    fsGroup: config.WORKER_FS_GROUP,
    tmpSizeLimit: config.WORKER_TMP_SIZE_LIMIT,
    maxResources: {
      cpu: config.WORKER_MAX_CPU,
      memory: config.WORKER_MAX_MEMORY,
      'ephemeral-storage': config.WORKER_MAX_EPHEMERAL_STORAGE,
    },
  };
}

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
