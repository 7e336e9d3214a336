import Joi from 'joi';
import { commonConfig, type CommonConfig } from '../../kit/src/core/index.js';
import { portOf } from '../../registry.js';

export type PeerConfig = CommonConfig;

/**
 * Each peer reads the common variables; its port is set by whoever starts it (the `peers` command
 * maps DOCUMENT_SERVICE_PORT / EXAM_SERVICE_PORT onto PORT, tests pass 0). The database is the
 * definition's own (`edu_peer_documents`, `edu_peer_exams`): a shared MONGODB_DB would merge them.
 */
export const peerConfigSchema = Joi.object<PeerConfig>({ ...commonConfig });

export interface PeerPorts {
  DOCUMENT_SERVICE_PORT: number;
  EXAM_SERVICE_PORT: number;
}

export const peerPortsSchema = Joi.object<PeerPorts>({
  DOCUMENT_SERVICE_PORT: Joi.number().port().default(portOf('peers')),
  EXAM_SERVICE_PORT: Joi.number().port().default(portOf('exam-peer')),
});

/** Stored objects and uploads: the DOCX limit of the import contract. */
export const MAX_OBJECT_BYTES = 50 * 1024 * 1024;
/** How long a presigned upload URL accepts its PUT. */
export const UPLOAD_TICKET_MS = 15 * 60 * 1000;
