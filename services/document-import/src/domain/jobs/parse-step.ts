// What a worker does with the bytes of one run. The native parser always runs; the external parser
// client and media materialization plug in here (ParseStep) when the integrations provide them.
import { DocxError, type QasOutput } from '../../parser/index.js';
import { parserSandbox } from '../../sandbox/index.js';
import type { ImportJobRow } from '../../store/job-models.js';
import type { JobFailure } from './types.js';

/** A run's job fields and its bytes, as the parse step gets them. */
export interface ParseInput {
  job: Pick<ImportJobRow, '_id' | 'organizationId' | 'createdBy' | 'jobKind' | 'fileName' | 'run'>;
  bytes: Buffer;
}

/** The parse step's result: the QAS output and the engine facts. */
export interface ParseOutcome {
  output: Record<string, unknown>;
  /** Engine facts kept in packagingJson (which parsers ran, what they said). */
  engine: Record<string, unknown>;
}

/** Turns a run's bytes into the QAS output; throws ParseFailure for a refusal of the file. */
export type ParseStep = (input: ParseInput) => Promise<ParseOutcome>;

/** A refusal of the file: the job's failure, never the worker's. */
export class ParseFailure extends Error {
  constructor(readonly failure: JobFailure) {
    super(failure.message);
    this.name = 'ParseFailure';
  }
}

/** The warning beside a native-only result (no external parser configured). */
export const NOT_CONNECTED = {
  code: 'PARSER_ENGINE_NOT_CONNECTED',
  message: 'No external parser is configured; the native parser result is returned',
} as const;

/**
 * A parser refusal as the job's failure, with what was seen when the parser says (DOCX_NO_QUESTIONS_FOUND);
 * anything else is DOCX_IMPORT_PARSE_FAILED.
 */
export function parseFailureOf(err: unknown): ParseFailure {
  if (!(err instanceof DocxError)) {
    return new ParseFailure({ code: 'DOCX_IMPORT_PARSE_FAILED', message: 'The document could not be parsed' });
  }
  const failure: JobFailure = { code: err.code, message: err.message };
  if (err.details) failure.details = { ...err.details };
  return new ParseFailure(failure);
}

/**
 * The native parser; a DocxError (zip bomb, entity expansion, corrupt file, no question found) is the
 * job's failure.
 */
export async function nativeParse(input: ParseInput): Promise<QasOutput> {
  try {
    // In a parse thread with heap and time limits: a hostile file ends its thread, not the worker.
    return await parserSandbox().parse(new Uint8Array(input.bytes), { documentId: `docx-import-${input.job._id}` });
  } catch (err) {
    throw parseFailureOf(err);
  }
}

/** Native only, with the contract's PARSER_ENGINE_NOT_CONNECTED warning beside the native result. */
export const nativeParseStep: ParseStep = async (input) => {
  const output = await nativeParse(input);
  return {
    output: { ...output, warnings: [{ ...NOT_CONNECTED }, ...output.warnings] },
    engine: { native: true, external: 'NOT_CONNECTED' },
  };
};
