import { pipeline } from 'node:stream/promises';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError, internalTokenGuard, readActor, type GuardTokens } from '../../../kit/src/core/index.js';
import type { DocumentedRoute, JsonObject } from '../../../kit/src/http/index.js';
import { BYTES, STORAGE_ERRORS, header, storedResponse } from './doc.js';
import type { StoredObjectRow } from './models.js';
import { KEY_PATTERN, claimTicket, newKey, openObject, putObject, releaseTicket, type DocumentDeps } from './store.js';

// Routes whose body is raw bytes. The kit's app takes only JSON and multipart bodies, so these run
// on a router in front of it (see service.ts); errors still go through the kit's error middleware.

function declaredTooLarge(req: Request, maxBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes;
}

function contentTypeOf(req: Request): string {
  const raw = req.headers['content-type'];
  return raw && /^[\w.+-]+\/[\w.+-]+/.test(raw) ? raw.split(';')[0]!.trim() : 'application/octet-stream';
}

function queryString(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function fileNameOf(req: Request, fallback: string): string {
  const name = queryString(req, 'fileName') ?? fallback;
  if (name.length > 255) throw new AppError('VALIDATION_ERROR', 'fileName is longer than 255 characters');
  return name;
}

// A refusal before the body was read: read and discard the rest, so the client's socket is not reset
// under its unsent bytes, and close the connection after the answer.
function wrap(handler: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    handler(req, res).catch((err: unknown) => {
      res.setHeader('Connection', 'close');
      req.resume();
      next(err);
    });
  };
}

async function storeFromRequest(deps: DocumentDeps, req: Request, key: string) {
  if (declaredTooLarge(req, deps.maxBytes)) {
    throw new AppError('PAYLOAD_TOO_LARGE', `Object is larger than ${deps.maxBytes} bytes`);
  }
  const organizationId = readActor(req).organizationId;
  const fileName = fileNameOf(req, key.split('/').pop() ?? 'object');
  return putObject(deps, { key, source: req, fileName, contentType: contentTypeOf(req), organizationId });
}

function sendStored(res: Response, status: number, row: { key: string; size: number; contentType: string }): void {
  res.status(status).json({
    success: true,
    data: { key: row.key, size: row.size, contentType: row.contentType },
    message: 'OK',
  });
}

export function bytesRoutes(deps: DocumentDeps, tokens: GuardTokens = {}): Router {
  const r = Router();
  // Raw object writes are for the platform's services, never for the DOCX workers' token.
  const guard = internalTokenGuard(tokens.internalToken);
  r.post(
    '/v1/storage/objects',
    guard,
    wrap(async (req, res) => {
      const key = newKey(fileNameOf(req, 'object'), deps.clock());
      sendStored(res, 201, await storeFromRequest(deps, req, key));
    }),
  );
  r.put(
    '/v1/storage/objects',
    guard,
    wrap(async (req, res) => {
      const key = queryString(req, 'key');
      if (!key || !KEY_PATTERN.test(key)) {
        throw new AppError('VALIDATION_ERROR', 'Query parameter key is missing or malformed', {
          details: [{ path: 'key', message: 'must match [A-Za-z0-9][A-Za-z0-9._/-]{0,299} without ..' }],
        });
      }
      sendStored(res, 200, await storeFromRequest(deps, req, key));
    }),
  );
  // The presigned URL: its token is the credential, so no internal token is asked for.
  r.put(
    '/v1/storage/uploads/:token',
    wrap(async (req, res) => {
      if (declaredTooLarge(req, deps.maxBytes)) {
        throw new AppError('PAYLOAD_TOO_LARGE', `Object is larger than ${deps.maxBytes} bytes`);
      }
      const token = String(req.params.token);
      const ticket = await claimTicket(deps, token);
      try {
        const row = await putObject(deps, { ...ticket, source: req });
        sendStored(res, 200, row);
      } catch (err) {
        await releaseTicket(deps, token);
        throw err;
      }
    }),
  );
  return r;
}

const query = (name: string, schema: JsonObject, required?: boolean): JsonObject => ({
  name,
  in: 'query',
  ...(required ? { required } : {}),
  schema,
});
const FILE_NAME = query('fileName', { type: 'string' });

/** A byte-body write's document: raw bytes of any type in, the stored object out. */
function bytesWrite(method: string, path: string, summary: string, parameters: JsonObject[]): DocumentedRoute {
  const status = method === 'post' ? 201 : 200;
  return {
    method,
    path,
    doc: {
      summary,
      parameters,
      bodyContentType: '*/*',
      bodySchema: BYTES,
      responses: { [status]: storedResponse(), ...STORAGE_ERRORS },
    },
  };
}

/**
 * What the document says about the byte-body routes above: hand-written Express routes (their
 * bodies are streams, not joi-validated), documented here beside them.
 */
export const bytesRouteDocs: DocumentedRoute[] = [
  bytesWrite('post', '/v1/storage/objects', 'Store bytes under a generated key', [
    FILE_NAME,
    header('X-Organization-Id'),
  ]),
  bytesWrite('put', '/v1/storage/objects', 'Store bytes under the given key (replaces)', [
    query('key', { type: 'string', pattern: KEY_PATTERN.source }, true),
    FILE_NAME,
  ]),
  bytesWrite('put', '/v1/storage/uploads/:token', 'The presigned upload URL: raw bytes; the token is the credential', [
    { name: 'token', in: 'path', required: true, schema: { type: 'string' } },
  ]),
];

/** Streams stored bytes with their type and length; a read failure after the headers cuts the response. */
export async function streamObject(
  deps: DocumentDeps,
  res: Response,
  row: StoredObjectRow,
  cacheControl: string,
): Promise<void> {
  const stream = openObject(deps, row);
  res.setHeader('Content-Type', row.contentType);
  res.setHeader('Content-Length', String(row.size));
  res.setHeader('Cache-Control', cacheControl);
  await pipeline(stream, res);
}
