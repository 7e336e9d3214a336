// `node dist/services/cli.js peers`: the document service on DOCUMENT_SERVICE_PORT (4008) and the
// exam service on EXAM_SERVICE_PORT (4009), one process, each with its own database.
import Joi from 'joi';
import { commonConfig, runProcess, type ProcessStart } from '../../kit/src/index.js';
import { peerPortsSchema, type PeerPorts } from './config.js';
import { startDocumentPeer, startExamPeer } from './start.js';

interface PeersCommandConfig extends PeerPorts {
  MONGODB_URI: string;
  LOG_LEVEL: string;
  INTERNAL_API_TOKEN?: string;
  WORKER_API_TOKEN?: string;
  HOST: string;
}

const schema = (peerPortsSchema as Joi.ObjectSchema).keys({
  MONGODB_URI: commonConfig.MONGODB_URI,
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
    const documents = await startDocumentPeer({ ...base, port: config.DOCUMENT_SERVICE_PORT });
    closers.push(() => documents.close());
    const exams = await startExamPeer({ ...base, port: config.EXAM_SERVICE_PORT });
    closers.unshift(() => exams.close());
    return {};
  },
});
