import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { mongo } from 'mongoose';
import { AppError } from '../../../kit/src/core/index.js';
import { UPLOAD_TICKET_MS } from '../config.js';
import { deleteBytes, writeBytes } from '../grid.js';
import type { DocumentModels, MediaAssetRow, StoredObjectRow, UploadTicketRow } from './models.js';

export interface DocumentDeps {
  models: DocumentModels;
  bucket: mongo.GridFSBucket;
  maxBytes: number;
  clock: () => Date;
}

export interface PutObject {
  key: string;
  source: Readable;
  fileName: string;
  contentType: string;
  organizationId?: string;
}

export const KEY_PATTERN = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,299}$/;

export function newKey(fileName: string, now: Date): string {
  const safe = fileName.replace(/[^A-Za-z0-9._-]/g, '_').slice(-120) || 'object';
  return `uploads/${now.toISOString().slice(0, 10)}/${randomUUID()}/${safe}`;
}

/** Stores bytes under `key`, replacing what was there (the old bytes go once the new row is written). */
export async function putObject(deps: DocumentDeps, put: PutObject): Promise<StoredObjectRow> {
  const stored = await writeBytes(deps.bucket, put.source, put.key, deps.maxBytes);
  const row: StoredObjectRow = {
    key: put.key,
    fileId: stored.fileId,
    size: stored.size,
    contentType: put.contentType,
    fileName: put.fileName,
    organizationId: put.organizationId,
    createdAt: deps.clock(),
  };
  const previous = await deps.models.StoredObject.findOneAndReplace({ key: put.key }, row, { upsert: true }).lean();
  if (previous && !previous.fileId.equals(stored.fileId)) await deleteBytes(deps.bucket, previous.fileId);
  return row;
}

export async function findObject(deps: DocumentDeps, key: string): Promise<StoredObjectRow> {
  const row = await deps.models.StoredObject.findOne({ key }).lean();
  if (!row) throw new AppError('STORAGE_OBJECT_NOT_FOUND', 'Storage object not found');
  return row;
}

export function openObject(deps: DocumentDeps, row: Pick<StoredObjectRow, 'fileId'>): Readable {
  return deps.bucket.openDownloadStream(row.fileId);
}

export interface TicketInput {
  fileName: string;
  contentType: string;
  organizationId: string;
}

export async function createTicket(deps: DocumentDeps, input: TicketInput): Promise<UploadTicketRow> {
  const now = deps.clock();
  const row: UploadTicketRow = {
    ...input,
    token: randomBytes(24).toString('base64url'),
    key: newKey(input.fileName, now),
    expiresAt: new Date(now.getTime() + UPLOAD_TICKET_MS),
  };
  await deps.models.UploadTicket.create(row);
  return row;
}

/** A ticket is good for one PUT before it expires; an unknown, used or expired token is 404. */
export async function claimTicket(deps: DocumentDeps, token: string): Promise<UploadTicketRow> {
  const now = deps.clock();
  const row = await deps.models.UploadTicket.findOneAndUpdate(
    { token, usedAt: { $exists: false }, expiresAt: { $gt: now } },
    { $set: { usedAt: now } },
    { new: true },
  ).lean();
  if (!row) throw new AppError('UPLOAD_TICKET_NOT_FOUND', 'Upload URL is unknown, used or expired');
  return row;
}

/** A failed PUT gives the ticket back, so the caller may retry the same URL. */
export async function releaseTicket(deps: DocumentDeps, token: string): Promise<void> {
  await deps.models.UploadTicket.updateOne({ token }, { $unset: { usedAt: 1 } });
}

export interface AssetInput {
  key: string;
  organizationId: string;
  ownerId?: string;
  fileName?: string;
  contentType?: string;
}

/** The object must exist and, when it was uploaded for an organization, belong to the caller's. */
export async function registerAsset(deps: DocumentDeps, input: AssetInput): Promise<MediaAssetRow> {
  const object = await deps.models.StoredObject.findOne({ key: input.key }).lean();
  if (!object || (object.organizationId && object.organizationId !== input.organizationId)) {
    throw new AppError('STORAGE_OBJECT_NOT_FOUND', 'Storage object not found');
  }
  const row: MediaAssetRow = {
    _id: randomUUID(),
    key: object.key,
    organizationId: input.organizationId,
    ownerId: input.ownerId,
    contentType: input.contentType ?? object.contentType,
    fileName: input.fileName ?? object.fileName,
    size: object.size,
    createdAt: deps.clock(),
  };
  await deps.models.MediaAsset.create(row);
  return row;
}

/** With an organization given, another organization's asset is not found (never 403: ids do not leak). */
export async function findAsset(deps: DocumentDeps, id: string, organizationId?: string): Promise<MediaAssetRow> {
  const row = await deps.models.MediaAsset.findById(id).lean();
  if (!row || (organizationId && row.organizationId !== organizationId)) {
    throw new AppError('MEDIA_ASSET_NOT_FOUND', 'Media asset not found');
  }
  return row;
}

export function assetView(row: MediaAssetRow): Record<string, unknown> {
  return {
    id: row._id,
    key: row.key,
    organizationId: row.organizationId,
    ownerId: row.ownerId ?? null,
    contentType: row.contentType,
    fileName: row.fileName,
    size: row.size,
    contentUrl: `/api/storage/media-assets/${row._id}/content`,
    createdAt: row.createdAt,
  };
}
