// The local stand-ins for the document and exam services (outside the platform), as libraries:
// the `peers` command runs both; tests start them in-process.
export { startDocumentPeer, startExamPeer, type PeerStartOptions, type RunningPeer } from './start.js';
export { documentPeerService, DOCUMENT_PEER_NAME, type BuiltDocumentPeer } from './documents/service.js';
export { examPeerService, EXAM_PEER_NAME, type BuiltExamPeer } from './exams/service.js';
export { MAX_OBJECT_BYTES } from './config.js';
