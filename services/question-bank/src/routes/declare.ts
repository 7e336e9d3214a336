import { readActor } from '../../../kit/src/core/index.js';
import {
  ok,
  okResponse,
  ref,
  requireRole,
  routes,
  type Empty,
  type JsonObject,
  type OperationDoc,
  type Route,
  type RouteDeclaration,
} from '../../../kit/src/http/index.js';
import type { QuestionBankDeps } from '../domain/deps.js';
import { writerOf, type Writer } from '../domain/questions/scope.js';
import { WRITE_HEADERS } from './docs.js';

/** The question bank's route declarer: every handler gets the service's dependencies. */
export const route = routes<QuestionBankDeps>();

/** The role check of every write (and of AI preparation over writable questions). */
export const writers = () => [requireRole('ADMIN', 'TEACHER')];

/** A write's document: its required scope headers are added in front of its responses. */
type WriteDoc = Omit<OperationDoc, 'parameters'> & { responses: JsonObject };

/** A write's declaration: as `route` takes it, less the role check and the scope headers. */
type WriteDeclaration<P, Q, B> = Omit<RouteDeclaration<P, Q, B, QuestionBankDeps>, 'before' | 'doc'> & {
  doc: WriteDoc;
};

/**
 * A write route: ADMIN or TEACHER only, its document stating the three required scope headers
 * (written once here, so each write declares only what is its own).
 */
export function writeRoute<P = Empty, Q = Empty, B = Empty>(decl: WriteDeclaration<P, Q, B>) {
  const { responses, ...doc } = decl.doc;
  return route<P, Q, B>({ ...decl, before: writers, doc: { ...doc, parameters: WRITE_HEADERS, responses } });
}

/** A 200 whose data is the named component schema, then the given error responses. */
export function okWith(schema: string, errors: JsonObject): JsonObject {
  return { 200: okResponse('Success', ref('schemas', schema)), ...errors };
}

/** A write that hands its JSON body, with the writer, to one domain call. */
interface WriterCall<B> {
  method: RouteDeclaration<Empty, Empty, B, QuestionBankDeps>['method'];
  path: string;
  body: NonNullable<RouteDeclaration<Empty, Empty, B, QuestionBankDeps>['body']>;
  doc: WriteDoc;
  run(deps: QuestionBankDeps, writer: Writer, body: B): Promise<unknown>;
}

/** A write route answering 200 with what `run` returns for the writer and the validated body. */
export function writerCall<B>(w: WriterCall<B>): Route<QuestionBankDeps> {
  return writeRoute<Empty, Empty, B>({
    method: w.method,
    path: w.path,
    body: w.body,
    doc: w.doc,
    handle: async (req, res, deps) => {
      ok(res, await w.run(deps, writerOf(readActor(req)), req.valid.body));
    },
  });
}
