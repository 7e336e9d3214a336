// `node dist/services/cli.js peers`: the document service on DOCUMENT_SERVICE_PORT (4008) and the
// exam service on EXAM_SERVICE_PORT (4009), one process, each with its own database (with MONGODB_DB
// set, `<MONGODB_DB>_documents` and `<MONGODB_DB>_exams`: a run of its own, as the fuzzing's).
import Joi from 'joi';
import { commonConfig, runProcess, type ProcessStart } from '../../kit/src/core/index.js';
import { peerPortsSchema, type PeerPorts } from './config.js';
import { startDocumentPeer, startExamPeer } from './start.js';

interface PeersCommandConfig extends PeerPorts {
  MONGODB_URI: string;
  MONGODB_DB?: string;
  LOG_LEVEL: string;
  INTERNAL_API_TOKEN?: string;
  WORKER_API_TOKEN?: string;
  HOST: string;
}

const schema = (peerPortsSchema as Joi.ObjectSchema).keys({
  MONGODB_URI: commonConfig.MONGODB_URI,
  // A prefix here: the two peers never share a database.
  MONGODB_DB: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,50}$/)
    .optional(),
  LOG_LEVEL: commonConfig.LOG_LEVEL,
  INTERNAL_API_TOKEN: commonConfig.INTERNAL_API_TOKEN,
  WORKER_API_TOKEN: commonConfig.WORKER_API_TOKEN,
  HOST: commonConfig.HOST,
}) as Joi.ObjectSchema<PeersCommandConfig>;

runProcess<PeersCommandConfig, ProcessStart>({
  name: 'peers',
  configSchema: schema,
  async start({ config, closers }) {
    const base = {
      mongoUri: config.MONGODB_URI,
      host: config.HOST,
      logLevel: config.LOG_LEVEL,
      internalToken: config.INTERNAL_API_TOKEN,
      workerToken: config.WORKER_API_TOKEN,
    };
    const dbName = (peer: string) => (config.MONGODB_DB ? `${config.MONGODB_DB}_${peer}` : undefined);
    const documents = await startDocumentPeer({
      ...base,
      dbName: dbName('documents'),
      port: config.DOCUMENT_SERVICE_PORT,
    });
    closers.push(() => documents.close());
    const exams = await startExamPeer({ ...base, dbName: dbName('exams'), port: config.EXAM_SERVICE_PORT });
    closers.unshift(() => exams.close());
    return {};
  },
});
