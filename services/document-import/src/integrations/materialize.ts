import { AppError } from '../../../kit/src/core/index.js';
import type { QasOutput } from '../parser/index.js';
import { openZip, type ZipReader } from '../parser/zip.js';
import type { DocumentClient, MediaAsset } from './document-client.js';
import type { Scope } from './http.js';

export const IMAGE_MATERIALIZE_FAILED = 'FORMULA_DOCX_IMAGE_MATERIALIZE_FAILED';
/** Pictures present but no document service configured: they stay package references. */
export const MEDIA_NOT_MATERIALIZED = 'DOCX_MEDIA_NOT_MATERIALIZED';
const CONCURRENCY = 3;

export interface MaterializeOptions {
  /** Absent: no document service configured; nothing is uploaded. */
  documents?: DocumentClient;
  /** X-Organization-Id owns the assets (required to upload), X-User-Id is their owner when present. */
  scope?: Partial<Scope>;
}

export interface MaterializeResult {
  output: QasOutput;
  materialized: number;
  failed: number;
}

type Media = Record<string, unknown>;
type Upload = { asset: MediaAsset } | { error: string };

function isPackageImage(m: Media): boolean {
  return (
    m.kind === 'image' &&
    (m.media_asset_id === null || m.media_asset_id === undefined) &&
    typeof m.object_key === 'string'
  );
}

function packageImages(output: QasOutput): Map<string, Media> {
  const byKey = new Map<string, Media>();
  for (const q of output.questions) {
    for (const m of (q.media as Media[] | undefined) ?? []) {
      if (isPackageImage(m) && !byKey.has(m.object_key as string)) byKey.set(m.object_key as string, m);
    }
  }
  return byKey;
}

function reason(err: unknown): string {
  if (err instanceof AppError) return err.message;
  return 'the image could not be read from the package';
}

async function uploadOne(documents: DocumentClient, zip: ZipReader, m: Media, scope: Scope): Promise<Upload> {
  try {
    const key = m.object_key as string;
    const bytes = zip.read(key);
    const fileName = key.split('/').pop() ?? 'image';
    const contentType = typeof m.content_type === 'string' ? m.content_type : 'application/octet-stream';
    return { asset: await documents.uploadMediaAsset({ bytes, fileName, contentType }, scope) };
  } catch (err) {
    return { error: reason(err) };
  }
}

function openPackage(bytes: Uint8Array): ZipReader | null {
  try {
    return openZip(bytes);
  } catch {
    return null;
  }
}

async function uploadAll(opts: MaterializeOptions, bytes: Uint8Array, images: Map<string, Media>) {
  const results = new Map<string, Upload>();
  const scope = opts.scope;
  const zip = scope?.organizationId ? openPackage(bytes) : undefined;
  if (!scope?.organizationId || !zip) {
    const error = zip === null ? 'the package cannot be read' : 'no organization to own the media asset';
    for (const key of images.keys()) results.set(key, { error });
    return results;
  }
  const queue = [...images.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      results.set(next[0], await uploadOne(opts.documents!, zip, next[1], scope as Scope));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return results;
}

function rewrite(output: QasOutput, results: Map<string, Upload>): QasOutput {
  const warnings = [...output.warnings];
  const questions = output.questions.map((q) => {
    const media = ((q.media as Media[] | undefined) ?? []).map((m) => {
      const r = isPackageImage(m) ? results.get(m.object_key as string) : undefined;
      if (!r) return m;
      if ('asset' in r) return { ...m, media_asset_id: r.asset.id, url: r.asset.contentUrl, object_key: r.asset.key };
      const message = `image ${String(m.object_key)} kept as a package reference: ${r.error}`;
      warnings.push({ code: IMAGE_MATERIALIZE_FAILED, message, question_id: q.id as string });
      return m;
    });
    return { ...q, media };
  });
  return { ...output, questions, warnings };
}

function withCounts(output: QasOutput, materialized: number, failed: number): MaterializeResult {
  const stats = { ...output.stats, images_materialized: materialized, images_pending: failed };
  return { output: { ...output, stats }, materialized, failed };
}

/**
 * Uploads every package picture a question references through the document service (presigned
 * upload, media asset registration) and rewrites the reference to `/api/storage/media-assets/{id}/content`
 * with the asset id. A picture that fails keeps its reference and adds FORMULA_DOCX_IMAGE_MATERIALIZE_FAILED
 * (per question that shows it); no reference is ever dropped. The same picture is uploaded once.
 * Without a document service nothing is uploaded and, when there are pictures, DOCX_MEDIA_NOT_MATERIALIZED
 * says so once. OLE and equation objects are not pictures and stay package references.
 */
export async function materializeMedia(
  output: QasOutput,
  docxBytes: Uint8Array,
  opts: MaterializeOptions,
): Promise<MaterializeResult> {
  const images = packageImages(output);
  if (images.size === 0) return withCounts(output, 0, 0);
  if (!opts.documents) {
    const warnings = [
      ...output.warnings,
      {
        code: MEDIA_NOT_MATERIALIZED,
        message: `no document service configured: ${images.size} images kept as package references`,
      },
    ];
    return withCounts({ ...output, warnings }, 0, images.size);
  }
  const results = await uploadAll(opts, docxBytes, images);
  const failed = [...results.values()].filter((r) => 'error' in r).length;
  return withCounts(rewrite(output, results), results.size - failed, failed);
}
