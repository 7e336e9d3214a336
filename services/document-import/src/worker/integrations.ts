// What the worker plugs into its seams from the integrations: the parse (native, then the external
// parser when DOCX_PARSER_URL is set, then media materialization when DOCUMENT_SERVICE_URL is set)
// and the auto-approval into the question bank after a successful parse.
import { AppError, type Logger } from '../../../kit/src/index.js';
import type { DocumentImportConfig } from '../config.js';
import type { CompletedHook, JobEngine } from '../jobs/engine.js';
import {
  approvalKey,
  approveJob,
  DocumentClient,
  ExternalParserClient,
  materializeMedia,
  parseWithEngines,
  QuestionBankClient,
  type ApprovalRequest,
} from '../integrations/index.js';
import { DocxError, type QasOutput } from '../parser/index.js';
import { ParseFailure, type ParseStep } from './parse-step.js';

export interface WorkerIntegrations {
  parse: ParseStep;
  /** The auto-approval hook, given the worker's engine (which records its outcome). */
  autoApprove: (engine: JobEngine) => CompletedHook;
}

function endpoint(config: DocumentImportConfig, baseUrl: string) {
  return { baseUrl, internalToken: config.INTERNAL_API_TOKEN };
}

function parseStep(config: DocumentImportConfig): ParseStep {
  const parser = config.DOCX_PARSER_URL
    ? new ExternalParserClient(endpoint(config, config.DOCX_PARSER_URL))
    : undefined;
  const documents = config.DOCUMENT_SERVICE_URL
    ? new DocumentClient(endpoint(config, config.DOCUMENT_SERVICE_URL))
    : undefined;
  return async ({ job, bytes }) => {
    let parsed: QasOutput;
    try {
      const input = { bytes: new Uint8Array(bytes), fileName: job.fileName, documentId: `docx-import-${job._id}` };
      parsed = await parseWithEngines({ ...input, parser });
    } catch (err) {
      if (err instanceof DocxError) throw new ParseFailure({ code: err.code, message: err.message });
      throw new ParseFailure({ code: 'DOCX_IMPORT_PARSE_FAILED', message: 'The document could not be parsed' });
    }
    const scope = { organizationId: job.organizationId, userId: job.createdBy };
    const media = await materializeMedia(parsed, new Uint8Array(bytes), { documents, scope });
    return {
      output: media.output as unknown as Record<string, unknown>,
      engine: {
        native: true,
        external: parser ? 'CONFIGURED' : 'NOT_CONNECTED',
        media: { materialized: media.materialized, failed: media.failed, documentService: Boolean(documents) },
      },
    };
  };
}

function failureOf(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  return { code: 'INTERNAL_ERROR', message: 'auto-approval failed' };
}

function autoApprove(config: DocumentImportConfig, logger: Logger) {
  const questionBank = config.QUESTION_BANK_URL
    ? new QuestionBankClient(endpoint(config, config.QUESTION_BANK_URL))
    : undefined;
  return (engine: JobEngine): CompletedHook =>
    async (job) => {
      const scope = { organizationId: job.organizationId, actorId: job.createdBy };
      const request: ApprovalRequest = {
        target: 'QUESTION_BANK',
        questionMetadata: { subjectId: job.subjectId ?? undefined, gradeLevel: job.gradeLevel ?? undefined },
      };
      try {
        if (!questionBank) throw new AppError('DEPENDENCY_UNAVAILABLE', 'The question bank is not configured');
        const output = job.parseResultJson as unknown as QasOutput;
        // The question bank takes writes from ADMIN or TEACHER; an upload job is a teacher's act, and
        // the ingest makes the uploader the questions' creator whatever role is forwarded.
        const peerScope = { organizationId: job.organizationId, userId: job.createdBy, role: 'TEACHER' };
        const approved = await approveJob(
          { id: job.id, fileName: job.fileName, title: job.title ?? undefined, output },
          request,
          peerScope,
          { questionBank },
        );
        await engine.recordApproval(scope, job.id, {
          approvalKey: approvalKey(request),
          target: 'QUESTION_BANK',
          auto: true,
          questionIds: approved.questionIds,
          documentId: approved.documentId,
          result: approved,
        });
      } catch (err) {
        logger.warn({ jobId: job.id, code: failureOf(err).code }, 'docx worker: auto-approval failed');
        await engine.recordAutoApprovalFailure(job.id, failureOf(err));
      }
    };
}

export function workerIntegrations(config: DocumentImportConfig, logger: Logger): WorkerIntegrations {
  return { parse: parseStep(config), autoApprove: autoApprove(config, logger) };
}
