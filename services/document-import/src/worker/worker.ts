// The parser worker: a consumer group on the work queue. Offsets are committed after each handled
// item (commitEachMessage), so the group's lag, which the operator scales on, is exactly the items
// waiting plus those in hand; a worker killed mid-job never commits its item, so it is redelivered.
import type { Registry } from 'prom-client';
import type { Logger } from '../../../kit/src/core/index.js';
import {
  PoisonMessageError,
  type ConsumerState,
  type EventBus,
  type PlatformEvent,
  type Subscription,
} from '../../../kit/src/bus/index.js';
import type { MongoHandle } from '../../../kit/src/data/index.js';
import { workerConcurrency, type DocumentImportConfig } from '../config.js';
import { autoApproveJob } from '../domain/approve.js';
import type { ApprovePort } from '../domain/deps.js';
import type { WorkItem } from '../domain/jobs/events.js';
import { openJobs } from '../domain/jobs/open.js';
import { nativeParseStep, type ParseStep } from '../domain/jobs/parse-step.js';
import { handleWorkItem, type WorkerRuntime } from '../domain/jobs/run.js';
import type { JobDeps } from '../domain/jobs/types.js';
import type { WorkerHealth } from './health.js';

export interface WorkerOptions {
  config: DocumentImportConfig;
  db: MongoHandle;
  bus: EventBus;
  logger: Logger;
  metrics?: Registry;
  /** Default: the native parser with PARSER_ENGINE_NOT_CONNECTED. */
  parse?: ParseStep;
  /** What the probes answer from: consumer phase and jobs in hand. */
  health?: WorkerHealth;
  /** Auto-approval of COMPLETED jobs that ask for it (the routes' approval); none: no auto-approval. */
  approve?: ApprovePort;
}

export interface RunningWorker {
  /** The worker's job deps (the same use cases the routes call). */
  jobs: JobDeps;
  /** Lets the items in hand finish (or leaves them uncommitted), leaves the group, stops the relay. */
  stop(): Promise<void>;
}

function asWorkItem(event: PlatformEvent<unknown>): WorkItem {
  const data = event.data as Partial<WorkItem> | null;
  if (!data || typeof data.jobId !== 'string' || typeof data.run !== 'number' || !data.storage) {
    throw new PoisonMessageError(`work item ${event.id} is not a docx-import.job.requested.v1`);
  }
  return data as WorkItem;
}

/** After a job COMPLETED: the auto-approval when one is configured; its errors are logged. */
function afterCompleted(jobs: JobDeps, approve: ApprovePort | undefined, logger: Logger) {
  return async (jobId: string): Promise<void> => {
    if (!approve) return;
    await autoApproveJob(jobs, approve, jobId).catch((err: unknown) =>
      logger.error({ err, jobId }, 'docx worker: completion hook failed'),
    );
  };
}

/** The consumer's own state into the probes: a crash kafkajs will not restart from fails liveness. */
export function reportConsumerState(health: WorkerHealth | undefined, state: ConsumerState): void {
  if (!health) return;
  if (state.phase === 'joined') health.consuming();
  else if (state.restarting) health.rejoining();
  else health.failed(`consumer crashed: ${state.error}`);
}

export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const { config, logger, bus } = opts;
  const opened = await openJobs({ config, db: opts.db, bus, logger, metrics: opts.metrics });
  const jobs = opened.deps;
  let stopping = false;
  const rt: WorkerRuntime = {
    jobs,
    parse: opts.parse ?? nativeParseStep,
    completed: afterCompleted(jobs, opts.approve, logger),
    stopping: () => stopping,
    inHand: opts.health ? (jobId) => opts.health!.jobStarted(jobId) : undefined,
  };
  const concurrency = workerConcurrency(config);
  let subscription: Subscription;
  try {
    subscription = await bus.consume({
      topic: config.DOCX_IMPORT_TOPIC,
      groupId: config.DOCX_IMPORT_CONSUMER_GROUP,
      fromBeginning: true,
      concurrency,
      commitEachMessage: true,
      session: {
        sessionTimeout: config.DOCX_WORKER_SESSION_TIMEOUT_MS,
        rebalanceTimeout: config.DOCX_WORKER_SESSION_TIMEOUT_MS,
        heartbeatInterval: Math.max(500, Math.floor(config.DOCX_WORKER_SESSION_TIMEOUT_MS / 10)),
        fetchMaxWaitMs: 500,
      },
      handle: (event) => handleWorkItem(rt, asWorkItem(event)),
      onState: (state) => reportConsumerState(opts.health, state),
    });
  } catch (err) {
    opts.health?.failed(`joining ${config.DOCX_IMPORT_CONSUMER_GROUP} failed: ${(err as Error).message}`);
    await opened.close();
    throw err;
  }
  // Ready when the consumer joins (onState): with the kit's background bus that is when Kafka answers.
  logger.info(
    { topic: config.DOCX_IMPORT_TOPIC, group: config.DOCX_IMPORT_CONSUMER_GROUP, concurrency },
    'docx worker consuming',
  );
  return {
    jobs,
    async stop() {
      stopping = true;
      opts.health?.draining();
      await subscription.stop();
      await opened.close();
    },
  };
}
