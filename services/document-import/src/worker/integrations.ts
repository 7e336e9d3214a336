// What the worker plugs into its parse seam from the integrations: native, then the external parser
// when DOCX_PARSER_URL is set, then media materialization when DOCUMENT_SERVICE_URL is set. (The
// auto-approval after a successful parse is the routes' own approval, domain/approve.ts.)
import type { DocumentImportConfig } from '../config.js';
import { DocumentClient, ExternalParserClient, materializeMedia, parseWithEngines } from '../integrations/index.js';
import type { QasOutput } from '../parser/index.js';
import { parseFailureOf, type ParseStep } from '../domain/jobs/parse-step.js';

export interface WorkerIntegrations {
  parse: ParseStep;
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
      throw parseFailureOf(err);
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

export function workerIntegrations(config: DocumentImportConfig): WorkerIntegrations {
  return { parse: parseStep(config) };
}
