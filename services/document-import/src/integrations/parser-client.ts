import { createHash } from 'node:crypto';
import { AppError } from '../../../kit/src/core/index.js';
import { DocxError, type QasOutput } from '../parser/index.js';
import type { Warning } from '../parser/types.js';
import { parserSandbox, type ParserSandbox } from '../sandbox/index.js';
import { fromExternalPayload } from './external-payload.js';
import { joinUrl, unavailable, upstreamError, type PeerEndpoint } from './http.js';

export const PARSER_NOT_CONNECTED = 'PARSER_ENGINE_NOT_CONNECTED';
/** The external parser failed (unreachable, an error, an unreadable payload): the native result stands. */
export const PARSER_FAILED_NATIVE_USED = 'FORMULA_PARSER_FAILED_NATIVE_USED';
export const STYLE_HINT_APPLIED = 'DOCX_NATIVE_STYLE_ANSWER_HINT_APPLIED';
export const PARSER_PATH = '/v1/import/docx/simple?include_html=1&include_meta=1&include_solution=1';
const SERVICE = 'formula parser';

/** The external formula parser at `{parser_url}`. */
export class ExternalParserClient {
  constructor(private readonly endpoint: PeerEndpoint) {}

  /** Streams the file (a Blob: `new Blob([bytes])` or `fs.openAsBlob(path)`) as multipart `file`. */
  async parse(file: Blob, fileName: string): Promise<unknown> {
    const form = new FormData();
    form.append('file', file, fileName);
    let res: Response;
    let body: unknown;
    try {
      res = await (this.endpoint.fetch ?? fetch)(joinUrl(this.endpoint.baseUrl, PARSER_PATH), {
        method: 'POST',
        body: form,
        headers: this.endpoint.internalToken ? { 'X-Internal-Token': this.endpoint.internalToken } : {},
        signal: AbortSignal.timeout(this.endpoint.timeoutMs ?? 120_000),
      });
      body = await res.json().catch(() => undefined);
    } catch (err) {
      throw unavailable(SERVICE, null, err);
    }
    if (!res.ok) throw upstreamError(SERVICE, res.status, body);
    if (body === undefined) throw upstreamError(SERVICE, res.status, { message: 'payload is not JSON' });
    return body;
  }
}

export interface ParseInput {
  bytes: Uint8Array;
  fileName: string;
  documentId?: string;
  /** Absent: no parser URL configured. */
  parser?: ExternalParserClient;
  /** What is streamed to the external parser (default: the bytes). */
  file?: Blob;
  /** Where the native parser runs (default: the process's sandbox; never this event loop). */
  sandbox?: ParserSandbox;
}

function recount(output: QasOutput, native: QasOutput): QasOutput {
  const byType: Record<string, number> = {};
  for (const q of output.questions) byType[String(q.type)] = (byType[String(q.type)] ?? 0) + 1;
  const external = output.stats;
  return {
    ...output,
    stats: {
      ...native.stats,
      ...external,
      total_questions: output.questions.length,
      // The parser's renderable image count when it gives one (formula artifacts are not images).
      total_images: typeof external.total_images === 'number' ? external.total_images : native.stats.total_images,
      answered: output.questions.filter((q) => q.correct_answer !== null && q.correct_answer !== undefined).length,
      answer_sources: answerSources(output),
      by_type: byType,
    },
  };
}

// Counted again over the merged questions: an external question has no source unless the native answer filled it.
function answerSources(output: QasOutput): Record<string, number> {
  const out: Record<string, number> = {};
  for (const q of output.questions) {
    const source = (q.source_location as { answer_source?: unknown } | undefined)?.answer_source;
    const key = typeof source === 'string' ? source : 'none';
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

// An external question with no answer takes the native one when both found the same questions
// (same count: matched by position), evidence included (red, underlined or highlighted runs).
function fillFromNative(output: QasOutput, native: QasOutput): { output: QasOutput; filled: number } {
  if (output.questions.length !== native.questions.length) return { output, filled: 0 };
  let filled = 0;
  const questions = output.questions.map((q, i) => {
    const n = native.questions[i]!;
    if (q.correct_answer !== null || n.correct_answer === null) return q;
    filled += 1;
    const location = {
      ...(q.source_location as object),
      answer_evidence: (n.source_location as { answer_evidence?: unknown }).answer_evidence,
      answer_source: (n.source_location as { answer_source?: unknown }).answer_source,
    };
    return { ...q, correct_answer: n.correct_answer, source_location: location };
  });
  return { output: { ...output, questions }, filled };
}

function withWarning(output: QasOutput, warning: Warning): QasOutput {
  return { ...output, warnings: [...output.warnings, warning] };
}

function failureReason(err: unknown): string {
  if (err instanceof AppError) return err.message;
  return 'unreadable payload';
}

interface NativePass {
  native: QasOutput;
  /** The native DOCX_NO_QUESTIONS_FOUND, kept while the external parser gets its chance. */
  none: DocxError | null;
}

// The native side of a document in which the native parser found no question: nothing to merge,
// the parser's own document id rule, images uncounted (0) unless the external parser counts them.
function emptyNative(input: ParseInput, none: DocxError): QasOutput {
  const documentId = input.documentId ?? `docx-${createHash('sha256').update(input.bytes).digest('hex').slice(0, 24)}`;
  const seen = none.details && 'paragraphs' in none.details ? none.details : { paragraphs: 0, tables: 0 };
  const blocks = seen.paragraphs + seen.tables;
  return {
    document_id: documentId,
    latency_ms: 0,
    questions: [],
    groups: [],
    warnings: [],
    stats: {
      total_questions: 0,
      total_images: 0,
      total_equation_objects: 0,
      total_formulas: 0,
      answered: 0,
      answer_sources: {},
      conventions: [],
      by_type: {},
      paragraphs: blocks,
    },
  };
}

// With an external parser configured, a document in which the native parser finds no question
// still goes to it (it may read what the native pass cannot); every other refusal stands at once.
async function nativePass(input: ParseInput): Promise<NativePass> {
  const sandbox = input.sandbox ?? parserSandbox();
  try {
    return { native: await sandbox.parse(input.bytes, { documentId: input.documentId }), none: null };
  } catch (err) {
    if (!input.parser || !(err instanceof DocxError) || err.code !== 'DOCX_NO_QUESTIONS_FOUND') throw err;
    return { native: emptyNative(input, err), none: err };
  }
}

/**
 * The parse a worker runs. The native parser always runs first, in the parser sandbox (a hostile file is refused here,
 * DocxError, whatever the external parser would say). Without a parser URL: the native output plus
 * PARSER_ENGINE_NOT_CONNECTED. With one: the external payload is the result (its questions, html,
 * formulas; style hints → DOCX_STYLE_HINT; zero questions with annotated segments → the annotated
 * fallback); an external question without an answer takes the native answer when both found the
 * same number of questions. The external parser failing leaves the native output with
 * FORMULA_PARSER_FAILED_NATIVE_USED; so does an external result with no question at all. When no
 * engine finds a question, the native DocxError DOCX_NO_QUESTIONS_FOUND is thrown: never an empty success.
 */
export async function parseWithEngines(input: ParseInput): Promise<QasOutput> {
  const { native, none } = await nativePass(input);
  const nativeWith = (warning: Warning): QasOutput => {
    if (none) throw none;
    return withWarning(native, warning);
  };
  if (!input.parser) {
    return nativeWith({
      code: PARSER_NOT_CONNECTED,
      message: 'external formula parser not configured; native parser result',
    });
  }
  const started = performance.now();
  let payload: unknown;
  try {
    payload = await input.parser.parse(input.file ?? new Blob([input.bytes]), input.fileName);
  } catch (err) {
    return nativeWith({
      code: PARSER_FAILED_NATIVE_USED,
      message: `external parser failed (${failureReason(err)}); native parser result`,
    });
  }
  const external = fromExternalPayload(payload, native.document_id);
  if (external.output.questions.length === 0) {
    return nativeWith({
      code: PARSER_FAILED_NATIVE_USED,
      message: 'external parser found no questions; native parser result',
    });
  }
  const merged = fillFromNative(external.output, native);
  let output = recount(merged.output, native);
  output = { ...output, latency_ms: Math.round((performance.now() - started + native.latency_ms) * 100) / 100 };
  if (external.hinted > 0 || merged.filled > 0) {
    output = withWarning(output, {
      code: STYLE_HINT_APPLIED,
      message: `${external.hinted + merged.filled} answers from style hints or the native pass`,
    });
  }
  return output;
}
