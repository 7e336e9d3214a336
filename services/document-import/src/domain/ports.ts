// The peers behind the routes' ports, from config: the document service, the parsers, approval.
import { AppError } from '../../../kit/src/core/index.js';
import type { DocumentImportConfig } from '../config.js';
import { approveJob, type ApprovalClients } from '../integrations/approval.js';
import { baselineReparse } from '../integrations/baseline-reparse.js';
import { DocumentClient } from '../integrations/document-client.js';
import { ExamClient } from '../integrations/exam-client.js';
import { ExternalParserClient, parseWithEngines } from '../integrations/parser-client.js';
import { QuestionBankClient } from '../integrations/question-bank-client.js';
import type { QasOutput } from '../parser/index.js';
import type { ApprovePort, BaselineReparse, DocumentPort } from './deps.js';
import type { QasParser } from './qas.js';

const unavailable = (what: string) => () => {
  throw new AppError('DEPENDENCY_UNAVAILABLE', `${what} is not configured`);
};

const endpoint = (baseUrl: string, config: DocumentImportConfig) => ({
  baseUrl,
  internalToken: config.INTERNAL_API_TOKEN,
});

export function documentPort(config: DocumentImportConfig): DocumentPort {
  if (!config.DOCUMENT_SERVICE_URL) {
    return { fetchFile: unavailable('The document service'), openAsset: unavailable('The document service') };
  }
  const client = new DocumentClient(endpoint(config.DOCUMENT_SERVICE_URL, config));
  return {
    fetchFile: async (s, key) => (await client.fetchObject(key, s)).bytes,
    openAsset: (s, id) => client.openMediaContent(id, s),
  };
}

/** The native parser, and the external one when DOCX_PARSER_URL is set (PARSER_ENGINE_NOT_CONNECTED otherwise). */
export function qasParser(config: DocumentImportConfig): QasParser {
  const parser = config.DOCX_PARSER_URL
    ? new ExternalParserClient(endpoint(config.DOCX_PARSER_URL, config))
    : undefined;
  return (bytes, req) => parseWithEngines({ bytes, fileName: req.fileName, parser });
}

/** Approval through the question bank (and the exam service for EXAM_DRAFT), in the caller's scope. */
export function approvalPort(config: DocumentImportConfig): ApprovePort {
  if (!config.QUESTION_BANK_URL) return unavailable('The question bank');
  const clients: ApprovalClients = {
    questionBank: new QuestionBankClient(endpoint(config.QUESTION_BANK_URL, config)),
    exams: config.EXAM_SERVICE_URL ? new ExamClient(endpoint(config.EXAM_SERVICE_URL, config)) : undefined,
  };
  return async (s, job, request) => {
    const output = job.parseResultJson as unknown as QasOutput;
    const approvalJob = { id: job.id, fileName: job.fileName, title: job.title ?? undefined, output };
    const result = await approveJob(
      approvalJob,
      request,
      // The actor's own role in the organization, never one the service makes up.
      { organizationId: s.organizationId, userId: s.userId, role: s.role, grant: s.grant },
      clients,
    );
    return { questionIds: result.questionIds, examId: result.examId ?? null, documentId: result.documentId, result };
  };
}

export const baselinePort: BaselineReparse = (sourceText) =>
  baselineReparse(sourceText) as unknown as Record<string, unknown>;
