import type { NextFunction, Request, Response } from 'express';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import { AppError, canonicalDigest } from '../core/index.js';
import { isDuplicateKey } from '../data/index.js';

export interface IdempotencyRecord {
  _id: Types.ObjectId;
  scope: string;
  key: string;
  /** SHA-256 of the canonical request: method, path, JSON body, uploaded file digest. */
  fingerprint: string;
  state: 'pending' | 'done';
  status?: number;
  /** The response body as sent (JSON text), so a replay is byte-for-byte the first answer. */
  body?: string;
  createdAt: Date;
  /** Past this the record counts as absent (checked on read; a TTL index removes it on real MongoDB). */
  expiresAt: Date;
  /** A pending record past this belongs to a request that died: the key may be claimed again. */
  lockedUntil: Date;
}

export interface IdempotencyKeyOptions {
  /** The service's own connection; the model registers on it, so syncIndexes builds its indexes. */
  conn: Connection;
  /** The key's namespace, from the request (organization and actor, say); keys are unique within it. */
  scope: (req: Request) => string;
  /** How long a stored response is replayed (the fast-job contract: 15 minutes). */
  ttlMs: number;
  /** Keys are trimmed, then cut to this many characters (default 120, as the import contract says). */
  maxKeyLength?: number;
  /** Without the header: 400 when true; otherwise the request runs without idempotency (default). */
  required?: boolean;
  /** How long a request may hold a key before it counts as dead (default 60 s). */
  lockMs?: number;
  collection?: string;
  now?: () => number;
}

/** The record model on a connection (one per collection name). */
export function idempotencyRecordModel(conn: Connection, collection = 'idempotency_keys'): Model<IdempotencyRecord> {
  const name = `IdempotencyRecord_${collection}`;
  const existing = conn.models[name] as Model<IdempotencyRecord> | undefined;
  if (existing) return existing;
  const schema = new Schema<IdempotencyRecord>(
    {
      scope: { type: String, required: true },
      key: { type: String, required: true },
      fingerprint: { type: String, required: true },
      state: { type: String, required: true, enum: ['pending', 'done'] },
      status: Number,
      body: String,
      createdAt: { type: Date, required: true },
      expiresAt: { type: Date, required: true },
      lockedUntil: { type: Date, required: true },
    },
    { versionKey: false, collection },
  );
  schema.index({ scope: 1, key: 1 }, { unique: true });
  schema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
  return conn.model<IdempotencyRecord>(name, schema);
}

type Settings = Required<Omit<IdempotencyKeyOptions, 'conn' | 'collection'>> & { model: Model<IdempotencyRecord> };

/**
 * `Idempotency-Key` for a route, placed after body parsing, `upload()` (the file digest joins the
 * fingerprint), `validate()` and `requireRole()`. The first request with a key runs and its answer
 * is stored before it is sent; the same key with the same request (method, path, canonical JSON
 * body) then replays it with `Idempotent-Replayed: true`; with another request it is 409
 * IDEMPOTENCY_KEY_REUSED. While the first still runs, the same key gets 409
 * IDEMPOTENCY_REQUEST_IN_PROGRESS with `Retry-After: 1`: only one ever executes. 5xx and the
 * refusals 400, 401, 403, 408, 413, 415, 429 are not stored (the key is released, a retry runs);
 * 2xx and other 4xx (404, 409, ...) are. Routes answer with `res.json` (ok(), list(), errors);
 * other answers replay their status only, and headers (Location, Retry-After) are not replayed.
 */
export function idempotencyKey(opts: IdempotencyKeyOptions) {
  const cfg: Settings = {
    scope: opts.scope,
    ttlMs: opts.ttlMs,
    maxKeyLength: opts.maxKeyLength ?? 120,
    required: opts.required ?? false,
    lockMs: opts.lockMs ?? 60_000,
    now: opts.now ?? Date.now,
    model: idempotencyRecordModel(opts.conn, opts.collection),
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    handle(req, res, next, cfg).catch(next);
  };
}

async function handle(req: Request, res: Response, next: NextFunction, cfg: Settings): Promise<void> {
  const key = readKey(req, cfg);
  if (key === undefined) return next();
  const scope = cfg.scope(req);
  const fingerprint = fingerprintOf(req);
  const claim = await claimKey(cfg, scope, key, fingerprint);
  if (claim.record) return replay(res, claim.record, fingerprint);
  capture(req, res, cfg.model, claim.id);
  next();
}

function readKey(req: Request, cfg: Settings): string | undefined {
  const raw = req.headers['idempotency-key'];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, cfg.maxKeyLength);
  if (key) return key;
  if (cfg.required) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key header is required', {
      details: [{ path: 'Idempotency-Key', message: 'is required' }],
    });
  }
  return undefined;
}

type Claim = { id: Types.ObjectId; record?: undefined } | { record: IdempotencyRecord };

async function claimKey(cfg: Settings, scope: string, key: string, fingerprint: string): Promise<Claim> {
  // A dead record is removed and the insert retried; a few rounds only matter under heavy contention.
  for (let round = 0; round < 3; round++) {
    const now = cfg.now();
    try {
      const [doc] = await cfg.model.create([
        {
          scope,
          key,
          fingerprint,
          state: 'pending',
          createdAt: new Date(now),
          expiresAt: new Date(now + cfg.ttlMs),
          lockedUntil: new Date(now + cfg.lockMs),
        },
      ]);
      return { id: doc!._id };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const existing = await cfg.model.findOne({ scope, key }).lean<IdempotencyRecord>();
    if (existing && isLive(existing, now)) return { record: existing };
    if (existing) await cfg.model.deleteOne({ _id: existing._id, createdAt: existing.createdAt });
  }
  throw inProgress();
}

function isLive(rec: IdempotencyRecord, now: number): boolean {
  if (rec.expiresAt.getTime() <= now) return false;
  return rec.state === 'done' || rec.lockedUntil.getTime() > now;
}

function inProgress(): AppError {
  return new AppError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress', {
    headers: { 'Retry-After': '1' },
  });
}

function replay(res: Response, rec: IdempotencyRecord, fingerprint: string): void {
  if (rec.fingerprint !== fingerprint) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key was already used with a different request');
  }
  if (rec.state !== 'done') throw inProgress();
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(rec.status ?? 200);
  if (rec.body === undefined) res.end();
  else res.type('application/json').send(rec.body);
}

// Refusals before anything happened (bad input, no right, throttled) and failures release the key,
// so a corrected or later retry runs; every other answer is the request's outcome and is kept.
const RELEASED_4XX = new Set([400, 401, 403, 408, 413, 415, 429]);

function keeps(status: number): boolean {
  return status < 500 && !RELEASED_4XX.has(status);
}

// Stores the answer before it leaves, so a client that got it and retries always finds it.
function capture(req: Request, res: Response, model: Model<IdempotencyRecord>, id: Types.ObjectId): void {
  const json = res.json.bind(res);
  let captured = false;
  const store = (body: string | undefined): Promise<unknown> => {
    const status = res.statusCode;
    if (!keeps(status)) return model.deleteOne({ _id: id });
    return model.updateOne({ _id: id }, { $set: { state: 'done', status, body } });
  };
  res.json = (body: unknown) => {
    captured = true;
    const text = JSON.stringify(body);
    store(text).then(
      () => json(body),
      (err: unknown) => {
        // The answer still goes out; the key stays pending until its lock runs out.
        req.log?.warn({ err }, 'idempotency record not stored');
        json(body);
      },
    );
    return res;
  };
  res.once('finish', () => {
    if (!captured) store(undefined).catch((err: unknown) => req.log?.warn({ err }, 'idempotency record not stored'));
  });
}

function fingerprintOf(req: Request): string {
  try {
    const request = {
      method: req.method,
      path: `${req.baseUrl}${req.path}`,
      body: req.body ?? null,
      file: req.file?.sha256 ?? null,
    };
    return canonicalDigest(request);
  } catch (err) {
    if (err instanceof RangeError) throw new AppError('VALIDATION_ERROR', 'Request body is nested too deeply');
    throw err;
  }
}
