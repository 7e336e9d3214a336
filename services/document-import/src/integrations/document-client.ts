import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError } from '../../../kit/src/core/index.js';
import { callJson, joinUrl, scopeHeaders, unavailable, upstreamError, type PeerEndpoint, type Scope } from './http.js';

const SERVICE = 'document service';
/** The import contract's DOCX limit, also the cap on any object fetched from the document service. */
export const MAX_FETCH_BYTES = 50 * 1024 * 1024;

export interface DocumentEndpoint extends PeerEndpoint {
  /** Bytes fetched by storage key past this are refused while streaming (default 50 MB). */
  maxBytes?: number;
  /** For a whole object transfer, body included (default 60 s). */
  transferTimeoutMs?: number;
}

export interface StoredObject {
  bytes: Buffer;
  contentType: string;
  size: number;
}

export interface MediaUpload {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
}

export interface MediaAsset {
  id: string;
  key: string;
  /** `/api/storage/media-assets/{id}/content` */
  contentUrl: string;
}

export interface MediaContent {
  contentType: string;
  contentLength?: number;
  body: Readable;
}

interface Ticket {
  key: string;
  uploadUrl: string;
  method?: string;
  headers?: Record<string, string>;
}

export function mediaContentPath(id: string): string {
  return `/api/storage/media-assets/${encodeURIComponent(id)}/content`;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The stored file is larger than ${maxBytes} bytes`);
}

async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of Readable.fromWeb(res.body as WebReadableStream<Uint8Array>)) {
    size += (chunk as Buffer).length;
    // Leaving the loop early destroys the stream, which cancels the transfer.
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** The document service as the import service uses it: storage fetch, media upload, media content. */
export class DocumentClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly endpoint: DocumentEndpoint) {
    this.fetch = endpoint.fetch ?? fetch;
  }

  /** The bytes stored under `key`; 404 STORAGE_OBJECT_NOT_FOUND, 413 past the cap, 502/503 otherwise. */
  async fetchObject(key: string, scope?: Scope): Promise<StoredObject> {
    const maxBytes = this.endpoint.maxBytes ?? MAX_FETCH_BYTES;
    const url = joinUrl(this.endpoint.baseUrl, `/v1/storage/objects/content?key=${encodeURIComponent(key)}`);
    try {
      const res = await this.fetch(url, {
        headers: scopeHeaders(scope, this.endpoint),
        signal: AbortSignal.timeout(this.endpoint.transferTimeoutMs ?? 60_000),
      });
      if (res.status === 404) throw new AppError('STORAGE_OBJECT_NOT_FOUND', 'No stored file under that storage key');
      if (!res.ok) throw upstreamError(SERVICE, res.status, await res.json().catch(() => undefined));
      const bytes = await readCapped(res, maxBytes);
      return { bytes, size: bytes.length, contentType: res.headers.get('content-type') ?? 'application/octet-stream' };
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw unavailable(SERVICE, null, err);
    }
  }

  /** Presigned upload, the PUT of the bytes, then registration as a media asset of the organization. */
  async uploadMediaAsset(upload: MediaUpload, scope: Scope): Promise<MediaAsset> {
    const headers = scopeHeaders(scope, this.endpoint);
    const ticket = await callJson<Ticket>(this.endpoint, {
      service: SERVICE,
      method: 'POST',
      path: '/v1/storage/presigned-upload',
      headers,
      body: { fileName: upload.fileName, contentType: upload.contentType },
    });
    await this.put(ticket, upload);
    const asset = await callJson<{ id: string; key?: string }>(this.endpoint, {
      service: SERVICE,
      method: 'POST',
      path: '/v1/storage/media-assets',
      headers,
      body: { key: ticket.key, fileName: upload.fileName, contentType: upload.contentType },
    });
    return { id: asset.id, key: asset.key ?? ticket.key, contentUrl: mediaContentPath(asset.id) };
  }

  // The presigned URL carries its own credential: no scope headers, no internal token go with it.
  private async put(ticket: Ticket, upload: MediaUpload): Promise<void> {
    let res: Response;
    try {
      res = await this.fetch(ticket.uploadUrl, {
        method: ticket.method ?? 'PUT',
        headers: { 'Content-Type': upload.contentType, ...ticket.headers },
        body: upload.bytes,
        signal: AbortSignal.timeout(this.endpoint.transferTimeoutMs ?? 60_000),
      });
      await res.arrayBuffer();
    } catch (err) {
      throw unavailable(SERVICE, null, err);
    }
    if (!res.ok) throw upstreamError(SERVICE, res.status);
  }

  /** Opens the asset's content as a stream (the timeout covers the answer's headers, not the body). */
  async openMediaContent(id: string, scope?: Scope): Promise<MediaContent> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.endpoint.timeoutMs ?? 15_000);
    let res: Response;
    try {
      res = await this.fetch(joinUrl(this.endpoint.baseUrl, mediaContentPath(id)), {
        headers: scopeHeaders(scope, this.endpoint),
        signal: controller.signal,
      });
    } catch (err) {
      throw unavailable(SERVICE, null, err);
    } finally {
      clearTimeout(timer);
    }
    if (res.status === 404) throw new AppError('MEDIA_ASSET_NOT_FOUND', 'Media asset not found');
    if (!res.ok || !res.body) throw upstreamError(SERVICE, res.status, await res.json().catch(() => undefined));
    const length = Number(res.headers.get('content-length'));
    return {
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      contentLength: Number.isFinite(length) && res.headers.has('content-length') ? length : undefined,
      body: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
    };
  }
}
