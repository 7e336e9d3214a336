// The payload spool shared by API and worker processes: a directory (local) or GridFS (cluster).
// A reference names the store and a location inside it, never a host path, so every process
// resolves it against its own configuration.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { mongo, type Connection } from 'mongoose';
import type { PayloadRef } from './job-models.js';
import type { PayloadSource } from './job-types.js';

/** Where a run's upload waits for its worker; a reference names the store, never a host path. */
export interface PayloadSpool {
  readonly store: string;
  put(name: string, source: PayloadSource): Promise<PayloadRef>;
  /** The bytes, or null when the payload is gone. */
  read(ref: PayloadRef): Promise<Buffer | null>;
  exists(ref: PayloadRef): Promise<boolean>;
  /** Idempotent: removing a missing payload is not an error. */
  remove(ref: PayloadRef): Promise<void>;
}

async function bytesOf(source: PayloadSource): Promise<Buffer> {
  return 'bytes' in source ? source.bytes : readFile(source.filePath);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const SAFE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

function checkName(name: string): string {
  if (!SAFE_NAME.test(name) || name.includes('..')) throw new Error(`spool: unsafe payload name ${name}`);
  return name;
}

/** A spool in a directory (local runs): written aside and renamed, mode 0600. */
export function directorySpool(dir: string): PayloadSpool {
  const pathOf = (name: string) => join(dir, checkName(name));
  return {
    store: 'spool-dir',
    async put(name, source) {
      await mkdir(dir, { recursive: true });
      const bytes = await bytesOf(source);
      const target = pathOf(name);
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${target}.partial`;
      await writeFile(partial, bytes, { mode: 0o600 });
      await rename(partial, target);
      return { store: 'spool-dir', ref: name, sizeBytes: bytes.length, sha256: sha256(bytes) };
    },
    async read(ref) {
      try {
        return await readFile(pathOf(ref.ref));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async exists(ref) {
      return stat(pathOf(ref.ref)).then(
        () => true,
        () => false,
      );
    },
    async remove(ref) {
      await rm(pathOf(ref.ref), { force: true });
    },
  };
}

const BUCKET = 'docx_payloads';

/** A spool in GridFS (bucket docx_payloads): every process of the cluster reads the same store. */
export function gridFsSpool(conn: Connection): PayloadSpool {
  const bucket = () => new mongo.GridFSBucket(conn.db!, { bucketName: BUCKET });
  const files = () => conn.db!.collection(`${BUCKET}.files`);
  const idOf = (ref: PayloadRef) => new mongo.ObjectId(ref.ref);
  return {
    store: 'gridfs',
    async put(name, source) {
      const bytes = await bytesOf(source);
      const upload = bucket().openUploadStream(checkName(name), { metadata: { sha256: sha256(bytes) } });
      const from = 'bytes' in source ? [bytes] : createReadStream(source.filePath);
      await pipeline(from, upload);
      return { store: 'gridfs', ref: upload.id.toString(), sizeBytes: bytes.length, sha256: sha256(bytes) };
    },
    async read(ref) {
      if (!(await this.exists(ref))) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of bucket().openDownloadStream(idOf(ref))) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async exists(ref) {
      if (!mongo.ObjectId.isValid(ref.ref)) return false;
      return (await files().countDocuments({ _id: idOf(ref) }, { limit: 1 })) > 0;
    },
    async remove(ref) {
      if (!mongo.ObjectId.isValid(ref.ref)) return;
      await bucket()
        .delete(idOf(ref))
        .catch((err: Error) => {
          if (!/file not found/i.test(err.message)) throw err;
        });
    },
  };
}

/** The spool DOCX_IMPORT_PAYLOAD_STORE names. */
export function spoolFor(kind: 'dir' | 'gridfs', opts: { dir: string; conn: Connection }): PayloadSpool {
  return kind === 'gridfs' ? gridFsSpool(opts.conn) : directorySpool(opts.dir);
}
