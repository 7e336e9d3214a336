import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { outboxConfig } from '../../kit/src/data/index.js';
import { TOPICS } from '../../../kafka/topics.js';
import { portOf } from '../../registry.js';

/** The service's and the parser workers' config (one schema: both read the same spool and queue). */
export interface DocumentImportConfig extends CommonConfig {
  MONGODB_DB: string;
  OUTBOX_PUBLISHER: 'none' | 'kafka';
  DOCX_IMPORT_PAYLOAD_DIR: string;
  DOCX_IMPORT_PAYLOAD_STORE: 'dir' | 'gridfs';
  DOCX_IMPORT_WORKER_CONCURRENCY?: number;
  ALGORITHM_IMPORT_WORKER_CONCURRENCY?: number;
  /** Injected by the operator into the worker pods (spec.worker.concurrency). */
  WORKER_CONCURRENCY?: number;
  DOCX_IMPORT_TOPIC: string;
  DOCX_IMPORT_CONSUMER_GROUP: string;
  DOCX_IMPORT_EVENTS_TOPIC: string;
  DOCX_IMPORT_LIVE_POLL_MS: number;
  DOCX_WORKER_LEASE_MS: number;
  DOCX_WORKER_SESSION_TIMEOUT_MS: number;
  /** Workers a run may take (each claim counts, stored before parsing); past it: FAILED DOCX_WORKER_CRASHED. */
  DOCX_WORKER_MAX_ATTEMPTS: number;
  /** How long a queued run's ingest grant (kit grant.ts) lets the workers' auto-approval ingest it. */
  DOCX_IMPORT_INGEST_GRANT_TTL_MS: number;
  /** Test hook: while this file exists a worker holds each job after marking it PROCESSING. */
  DOCX_WORKER_PAUSE_FILE?: string;
  /** Parse threads per process (the sandbox; never the event loop). */
  DOCX_PARSER_THREADS: number;
  /** Documents waiting for a parse thread; one more is 503 DOCX_PARSER_BUSY. */
  DOCX_PARSER_QUEUE: number;
  /** Wall-clock time one parse may take (DOCX_PARSE_TIMEOUT past it). */
  DOCX_PARSER_TIME_LIMIT_MS: number;
  /** Old-generation heap of one parse thread (DOCX_TOO_COMPLEX past it). */
  DOCX_PARSER_HEAP_MB: number;
  DOCX_PARSER_URL?: string;
  DOCUMENT_SERVICE_URL?: string;
  QUESTION_BANK_URL?: string;
  EXAM_SERVICE_URL?: string;
}

const concurrency = Joi.number().integer().min(1).max(64);
const topicName = Joi.string().pattern(/^[a-zA-Z0-9._-]{1,249}$/);
const url = Joi.string().uri({ scheme: ['http', 'https'] });

export const documentImportConfigSchema = Joi.object<DocumentImportConfig>({
  ...commonConfig,
  ...outboxConfig,
  // The work queue travels through the outbox: without the relay no job would ever reach a worker.
  OUTBOX_PUBLISHER: Joi.string().valid('none', 'kafka').default('kafka'),
  PORT: Joi.number().port().default(portOf('document-import')),
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,63}$/)
    .default('edu_document_import'),
  DOCX_IMPORT_PAYLOAD_DIR: Joi.string().default(join(tmpdir(), 'edu-docx-import-spool')),
  DOCX_IMPORT_PAYLOAD_STORE: Joi.string().valid('dir', 'gridfs').default('dir'),
  DOCX_IMPORT_WORKER_CONCURRENCY: concurrency.optional(),
  ALGORITHM_IMPORT_WORKER_CONCURRENCY: concurrency.optional(),
  WORKER_CONCURRENCY: concurrency.optional(),
  DOCX_IMPORT_TOPIC: topicName.default(TOPICS.docxImportJobs),
  DOCX_IMPORT_CONSUMER_GROUP: Joi.string().min(1).max(255).default('docx-parser'),
  DOCX_IMPORT_EVENTS_TOPIC: topicName.default(TOPICS.docxImportJobEvents),
  DOCX_IMPORT_LIVE_POLL_MS: Joi.number().integer().min(50).max(60000).default(500),
  DOCX_WORKER_LEASE_MS: Joi.number().integer().min(1000).max(600000).default(15000),
  DOCX_WORKER_SESSION_TIMEOUT_MS: Joi.number().integer().min(6000).max(300000).default(30000),
  DOCX_WORKER_MAX_ATTEMPTS: Joi.number().integer().min(1).max(20).default(3),
  DOCX_IMPORT_INGEST_GRANT_TTL_MS: Joi.number()
    .integer()
    .min(1000)
    .max(7 * 24 * 3600 * 1000)
    .default(24 * 3600 * 1000),
  DOCX_WORKER_PAUSE_FILE: Joi.string().optional(),
  DOCX_PARSER_THREADS: Joi.number().integer().min(1).max(16).default(1),
  DOCX_PARSER_QUEUE: Joi.number().integer().min(1).max(1000).default(8),
  DOCX_PARSER_TIME_LIMIT_MS: Joi.number().integer().min(100).max(600000).default(20000),
  DOCX_PARSER_HEAP_MB: Joi.number().integer().min(32).max(4096).default(256),
  DOCX_PARSER_URL: url.optional(),
  DOCUMENT_SERVICE_URL: url.optional(),
  QUESTION_BANK_URL: url.optional(),
  EXAM_SERVICE_URL: url.optional(),
});

/**
 * The parse sandbox's size from config; a worker queues at least as many documents as it runs jobs
 * at once, so a busy sandbox never fails a job.
 */
export function sandboxOptions(config: DocumentImportConfig, jobsAtOnce = 0) {
  return {
    threads: config.DOCX_PARSER_THREADS,
    maxQueue: Math.max(config.DOCX_PARSER_QUEUE, jobsAtOnce),
    timeLimitMs: config.DOCX_PARSER_TIME_LIMIT_MS,
    maxOldGenerationSizeMb: config.DOCX_PARSER_HEAP_MB,
  };
}

/**
 * Jobs one worker process runs at once: the contract's DOCX_IMPORT_WORKER_CONCURRENCY, else
 * ALGORITHM_IMPORT_WORKER_CONCURRENCY, else the operator's WORKER_CONCURRENCY, else 2.
 */
export function workerConcurrency(config: DocumentImportConfig): number {
  return (
    config.DOCX_IMPORT_WORKER_CONCURRENCY ??
    config.ALGORITHM_IMPORT_WORKER_CONCURRENCY ??
    config.WORKER_CONCURRENCY ??
    2
  );
}
