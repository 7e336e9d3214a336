import busboy, { type Busboy, type FieldInfo, type FileInfo } from 'busboy';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { NextFunction, Request, Response } from 'express';
import { drainThen, AppError, createShares, watchBodyPace, type BodyPace, type UploadedFile } from '../core/index.js';
import { overShare, shareSettings, tooSlow, type UploadHolders, type UploadShareOptions } from './upload-limits.js';

/** The shares (`holders`, `maxPerClient`, `maxPerOrganization`) and the `pace` are upload-limits.ts's. */
export interface UploadOptions extends UploadShareOptions {
  /** The form field that carries the file; exactly one file, in this field. */
  field: string;
  /** Largest file in bytes: exactly `maxBytes` passes, one more is 413 while streaming. */
  maxBytes: number;
  /** Lower-case extensions with the dot (`['.docx']`); another extension is 415. */
  allowedExtensions?: readonly string[];
  /** Text fields accepted (default 20); more is 413. */
  maxFields?: number;
  /** Largest text field in bytes (default 64 KiB); larger is 413. */
  maxFieldBytes?: number;
  /**
   * The directory files are spooled to while their request lasts (default `os.tmpdir()`); it must
   * exist. Size it for `maxBytes` times `maxConcurrent`.
   */
  spoolDir?: string;
  /**
   * Files this middleware spools at once (default 4): the next upload is refused before a byte is
   * read, 503 UPLOADS_BUSY with Retry-After, until one of them ends. Share one middleware between
   * the routes of a process, so the cap (and the spool's size) holds for the process.
   */
  maxConcurrent?: number;
}

export type { UploadHolders, UploadShareOptions } from './upload-limits.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The file `upload()` received; its text fields are in `req.body`. */
    file?: UploadedFile;
  }
}

/** Temp files are `<spoolDir>/edu-upload-<uuid>` (`os.tmpdir()` unless the route names one). */
export const UPLOAD_TEMP_PREFIX = 'edu-upload-';

/** Seconds a client refused with UPLOADS_BUSY is told to wait. */
export const UPLOAD_BUSY_RETRY_AFTER_S = 2;

interface Settings extends Required<Omit<UploadOptions, 'holders' | 'pace'>> {
  holders?: UploadOptions['holders'];
  pace?: BodyPace;
  /** A declared Content-Length past this cannot fit the limits: refused before reading. */
  maxRequestBytes: number;
}

/**
 * Route middleware for one `multipart/form-data` file: streams it to a temp file while hashing it,
 * enforces `maxBytes` as the bytes arrive (413 PAYLOAD_TOO_LARGE at byte `maxBytes + 1`, the rest
 * discarded, never buffered), and gives the route `req.file` and the text fields in `req.body`.
 * 415 when the request is not multipart or the extension is not allowed; 400 VALIDATION_ERROR when
 * the field is missing, another file field or a second file arrives, or the form is malformed; 503
 * UPLOADS_BUSY (Retry-After) while `maxConcurrent` uploads hold the spool. The temp file is removed
 * on every path: after the response ends, on any error, on client abort; its slot is freed after.
 */
export function upload(opts: UploadOptions) {
  const cfg = settings(opts);
  const shares = createShares<keyof UploadHolders>({
    total: cfg.maxConcurrent,
    perHolder: { client: cfg.maxPerClient, organization: cfg.maxPerOrganization },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (Number(req.headers['content-length'] ?? 0) > cfg.maxRequestBytes) {
      cut(res, next, tooLarge(cfg.maxBytes));
      return;
    }
    if (!req.is('multipart/form-data')) {
      drainThen(req, res, { limit: cfg.maxRequestBytes }, () =>
        next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be multipart/form-data')),
      );
      return;
    }
    const share = shares.acquire(cfg.holders?.(req, res) ?? {});
    if (!share.ok) {
      const refusal =
        share.limit === 'total'
          ? busy(cfg.maxConcurrent)
          : overShare(share.limit, share.max, UPLOAD_BUSY_RETRY_AFTER_S);
      drainThen(req, res, { limit: cfg.maxRequestBytes }, () => next(refusal));
      return;
    }
    const release = () => share.release();
    new Receiver(req, res, cfg, release).run().then(({ file, fields }) => {
      req.file = file;
      req.body = fields;
      next();
    }, next);
  };
}

function settings(opts: UploadOptions): Settings {
  if (!Number.isSafeInteger(opts.maxBytes) || opts.maxBytes < 0) throw new Error('upload: maxBytes must be an integer');
  const maxFields = opts.maxFields ?? 20;
  const maxFieldBytes = opts.maxFieldBytes ?? 64 * 1024;
  const maxConcurrent = opts.maxConcurrent ?? 4;
  if (!Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1) throw new Error('upload: maxConcurrent must be >= 1');
  return {
    field: opts.field,
    maxBytes: opts.maxBytes,
    allowedExtensions: (opts.allowedExtensions ?? []).map((e) => e.toLowerCase()),
    maxFields,
    maxFieldBytes,
    spoolDir: opts.spoolDir ?? tmpdir(),
    maxConcurrent,
    ...shareSettings(opts),
    // Part headers and boundaries cost a few hundred bytes per part; 64 KiB is ample slack.
    maxRequestBytes: opts.maxBytes + maxFields * maxFieldBytes + 64 * 1024,
  };
}

// An oversized body is not read: the answer goes out, then the connection is closed behind it.
function cut(res: Response, next: NextFunction, err: AppError): void {
  res.setHeader('Connection', 'close');
  next(err);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `File is larger than ${maxBytes} bytes`, {
    details: { maxBytes },
  });
}

function busy(maxConcurrent: number): AppError {
  return new AppError('UPLOADS_BUSY', 'Too many uploads in progress; retry shortly', {
    status: 503,
    details: { maxConcurrent },
    headers: { 'Retry-After': String(UPLOAD_BUSY_RETRY_AFTER_S) },
  });
}

function invalid(message: string, path?: string): AppError {
  return new AppError('VALIDATION_ERROR', message, path ? { details: [{ path, message }] } : {});
}

interface Received {
  file: UploadedFile;
  fields: Record<string, string>;
}

class Receiver {
  private readonly fields: Record<string, string> = {};
  private written?: Promise<UploadedFile>;
  private tempPath?: string;
  private sink?: WriteStream;
  private parser?: Busboy;
  private settled = false;
  /** Bytes of the request body read so far (the form's part headers included). */
  private received = 0;
  private resolve: (r: Received) => void = () => undefined;
  private reject: (e: unknown) => void = () => undefined;

  constructor(
    private readonly req: Request,
    private readonly res: Response,
    private readonly cfg: Settings,
    /** Frees the upload's slot: called once, after the temp file is gone. */
    private readonly release: () => void,
  ) {}

  run(): Promise<Received> {
    return new Promise<Received>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      // 'close' comes once the response is done or the connection is gone: the one cleanup point.
      this.res.once('close', () => void this.discard().finally(this.release));
      this.req.once('close', () => {
        if (!this.req.complete) this.fail(invalid('Request aborted'));
      });
      this.req.once('error', () => this.fail(invalid('Request aborted')));
      this.req.on('data', (chunk: Buffer) => (this.received += chunk.length));
      const { pace } = this.cfg;
      if (pace) watchBodyPace(this.req, pace, (reason) => this.fail(tooSlow(reason, pace), { cut: true }));
      this.start();
    });
  }

  private start(): void {
    try {
      this.parser = busboy({
        headers: this.req.headers,
        defParamCharset: 'utf8',
        // busboy flags a limit when it is reached, so one byte over is where "too large" begins.
        limits: {
          fileSize: this.cfg.maxBytes + 1,
          files: 1,
          fields: this.cfg.maxFields,
          fieldSize: this.cfg.maxFieldBytes + 1,
        },
      });
    } catch {
      this.fail(invalid('Malformed multipart/form-data header'));
      return;
    }
    const p = this.parser;
    p.on('file', (name: string, stream: Readable, info: FileInfo) => this.onFile(name, stream, info));
    p.on('field', (name: string, value: string, info: FieldInfo) => this.onField(name, value, info));
    p.on('filesLimit', () => this.fail(invalid('Only one file may be uploaded', this.cfg.field)));
    p.on('fieldsLimit', () => this.fail(new AppError('PAYLOAD_TOO_LARGE', 'Too many form fields')));
    p.on('error', () => this.fail(invalid('Malformed multipart body')));
    p.on('close', () => this.onFormDone());
    this.req.pipe(p);
  }

  private onFile(name: string, stream: Readable, info: FileInfo): void {
    if (this.settled || !info.filename) {
      // A browser sends an empty part with no file name when no file was chosen: absent.
      stream.resume();
      return;
    }
    if (name !== this.cfg.field) {
      stream.resume();
      this.fail(invalid(`Unexpected file field ${name.slice(0, 100)}`, name.slice(0, 100)));
      return;
    }
    const ext = extname(info.filename).toLowerCase();
    if (this.cfg.allowedExtensions.length > 0 && !this.cfg.allowedExtensions.includes(ext)) {
      stream.resume();
      const allowed = this.cfg.allowedExtensions.join(', ');
      this.fail(new AppError('UNSUPPORTED_MEDIA_TYPE', `File must have one of the extensions: ${allowed}`));
      return;
    }
    this.written = this.store(stream, info.filename, info.mimeType);
    // A failing disk write would otherwise leave busboy waiting on a destroyed stream.
    this.written.catch((err: unknown) => this.fail(err));
  }

  private async store(stream: Readable, filename: string, mimeType: string): Promise<UploadedFile> {
    const path = join(this.cfg.spoolDir, `${UPLOAD_TEMP_PREFIX}${randomUUID()}`);
    this.tempPath = path;
    this.sink = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    stream.once('limit', () => this.fail(tooLarge(this.cfg.maxBytes), { cut: true }));
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        size += chunk.length;
        cb(null, chunk);
      },
    });
    await pipeline(stream, meter, this.sink);
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    const originalName = filename.replace(/[\u0000-\u001f\u007f]/g, '').slice(-255);
    return { path, originalName, size, mimeType, sha256: hash.digest('hex') };
  }

  private onField(name: string, value: string, info: FieldInfo): void {
    if (this.settled) return;
    if (info.valueTruncated) {
      this.fail(new AppError('PAYLOAD_TOO_LARGE', `Form field is larger than ${this.cfg.maxFieldBytes} bytes`));
      return;
    }
    // defineProperty, so a field named __proto__ is a field and not a prototype.
    Object.defineProperty(this.fields, name, { value, enumerable: true, writable: true, configurable: true });
  }

  private onFormDone(): void {
    if (this.settled) return;
    if (!this.written) {
      this.fail(invalid(`File field ${this.cfg.field} is required`, this.cfg.field));
      return;
    }
    this.written.then(
      (file) => this.succeed(file),
      (err: unknown) => this.fail(err),
    );
  }

  private succeed(file: UploadedFile): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve({ file, fields: this.fields });
  }

  /**
   * Refuses the upload. What is still coming is read and discarded first, so the client gets the
   * answer; only a body past the size limit (`cut`, or more than `maxRequestBytes` in all) is
   * answered at once, with the connection closed behind the answer.
   */
  private fail(err: unknown, opts: { cut?: boolean } = {}): void {
    if (this.settled) return;
    this.settled = true;
    if (this.parser) this.req.unpipe(this.parser);
    void this.discard();
    if (opts.cut && !this.req.complete) {
      if (!this.res.headersSent) this.res.setHeader('Connection', 'close');
      this.req.resume();
      this.reject(err);
      return;
    }
    drainThen(this.req, this.res, { limit: this.cfg.maxRequestBytes, seen: this.received }, () => this.reject(err));
  }

  private async discard(): Promise<void> {
    const path = this.tempPath;
    if (!path) return;
    this.tempPath = undefined;
    // The sink may still be opening: unlinking before its open would leave the file behind.
    if (this.sink && !this.sink.closed) {
      this.sink.destroy();
      await finished(this.sink).catch(() => undefined);
    }
    await rm(path, { force: true }).catch(() => undefined);
  }
}
