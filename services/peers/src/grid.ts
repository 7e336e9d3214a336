import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mongo, type Connection } from 'mongoose';
import { AppError } from '../../kit/src/core/index.js';

export interface StoredBytes {
  fileId: mongo.ObjectId;
  size: number;
}

export function bucketOf(conn: Connection): mongo.GridFSBucket {
  if (!conn.db) throw new Error('mongoose connection has no database');
  return new mongo.GridFSBucket(conn.db, { bucketName: 'objects' });
}

// Counts bytes as they pass and fails at byte maxBytes + 1, so an oversized body is never buffered.
function sizeCap(maxBytes: number, seen: { size: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen.size += chunk.length;
      if (seen.size > maxBytes) {
        done(new AppError('PAYLOAD_TOO_LARGE', `Object is larger than ${maxBytes} bytes`));
        return;
      }
      done(null, chunk);
    },
  });
}

/** Streams `source` into GridFS; on any failure (cap, client abort) the partial file is removed. */
export async function writeBytes(
  bucket: mongo.GridFSBucket,
  source: Readable,
  name: string,
  maxBytes: number,
): Promise<StoredBytes> {
  const seen = { size: 0 };
  const upload = bucket.openUploadStream(name);
  try {
    await pipeline(source, sizeCap(maxBytes, seen), upload);
  } catch (err) {
    await upload.abort().catch(() => undefined);
    await bucket.delete(upload.id).catch(() => undefined);
    source.resume();
    throw err;
  }
  return { fileId: upload.id, size: seen.size };
}

export async function deleteBytes(bucket: mongo.GridFSBucket, fileId: mongo.ObjectId): Promise<void> {
  await bucket.delete(fileId).catch(() => undefined);
}
