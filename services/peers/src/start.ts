import type { MongoHandle } from '../../kit/src/data/index.js';
import { startService, type BuiltService, type ServiceDefinition } from '../../kit/src/service/index.js';
import type { PeerConfig } from './config.js';
import { documentPeerService, type BuiltDocumentPeer } from './documents/service.js';
import { examPeerService, type BuiltExamPeer } from './exams/service.js';

export interface PeerStartOptions {
  mongoUri: string;
  /** Default: the peer's own database (`edu_peer_documents`, `edu_peer_exams`); tests pass their own. */
  dbName?: string;
  /** Default 0 (any free port). */
  port?: number;
  host?: string;
  internalToken?: string;
  /** The DOCX workers' narrower token, accepted on the routes the workers call. */
  workerToken?: string;
  logLevel?: string;
  logDestination?: NodeJS.WritableStream;
  /** Drop the database on close (tests). */
  dropDatabaseOnClose?: boolean;
  /** Let SIGTERM/SIGINT stop this peer (the `peers` command handles signals itself). */
  handleSignals?: boolean;
}

export interface RunningPeer<B> {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  built: B;
  db: MongoHandle;
  close(): Promise<void>;
}

async function startPeer<B extends BuiltService>(
  def: ServiceDefinition<PeerConfig, B>,
  opts: PeerStartOptions,
): Promise<RunningPeer<B>> {
  const host = opts.host ?? '127.0.0.1';
  const env: Record<string, string> = {
    PORT: String(opts.port ?? 0),
    MONGODB_URI: opts.mongoUri,
    LOG_LEVEL: opts.logLevel ?? 'warn',
    ...(opts.internalToken ? { INTERNAL_API_TOKEN: opts.internalToken } : {}),
    ...(opts.workerToken ? { WORKER_API_TOKEN: opts.workerToken } : {}),
  };
  const running = await startService(
    { ...def, dbName: opts.dbName ?? def.dbName },
    { env, host, logDestination: opts.logDestination, handleSignals: opts.handleSignals ?? false },
  );
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${running.port}`,
    port: running.port,
    built: running.built,
    db: running.db,
    async close() {
      if (opts.dropDatabaseOnClose) await running.db.conn.dropDatabase().catch(() => undefined);
      await running.shutdown('peer closed');
    },
  };
}

/** The local document service, in-process. */
export function startDocumentPeer(opts: PeerStartOptions): Promise<RunningPeer<BuiltDocumentPeer>> {
  return startPeer(documentPeerService, opts);
}

/** The local exam service, in-process. */
export function startExamPeer(opts: PeerStartOptions): Promise<RunningPeer<BuiltExamPeer>> {
  return startPeer(examPeerService, opts);
}
