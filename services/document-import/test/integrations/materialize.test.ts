import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'mocha';
import { testDbName, testMongoUri } from '../../../kit/test/support/servers.js';
import { startDocumentPeer, type BuiltDocumentPeer, type RunningPeer } from '../../../peers/src/index.js';
import {
  DocumentClient,
  IMAGE_MATERIALIZE_FAILED,
  MEDIA_NOT_MATERIALIZED,
  materializeMedia,
} from '../../src/integrations/index.js';
import { parseDocx, type QasOutput } from '../../src/parser/index.js';
import { openZip } from '../../src/parser/zip.js';
import { crc32, deflateSync } from 'node:zlib';
import { Document, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { makeDocx } from '../parser/support/build-docx.js';

const SCOPE = { organizationId: 'org-a', userId: 'teacher-1' };
type Media = Record<string, unknown>;

const mediaOf = (out: QasOutput): Media[] => out.questions.flatMap((q) => q.media as Media[]);

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([len, Buffer.from(type), data, crc]);
}

/** A valid 1×1 RGB PNG of one colour: distinct pictures, so the package holds distinct media files. */
function png(r: number, g: number, b: number): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const idat = deflateSync(Buffer.from([0, r, g, b]));
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

function line(text: string, picture?: Buffer): Paragraph {
  const children = [new TextRun({ text })];
  const image = picture
    ? [new ImageRun({ type: 'png', data: picture, transformation: { width: 20, height: 20 } })]
    : [];
  return new Paragraph({ children: [...children, ...image] });
}

async function twoPictureDocx(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          line('Câu 1. Hình nào là hình vuông? ', png(255, 0, 0)),
          line('A. Hình 1'),
          line('B. Hình 2'),
          line('Đáp án: B'),
          line('Câu 2. Quan sát hình ', png(0, 0, 255)),
          line('A. Có'),
          line('B. Không'),
          line('Đáp án: A'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return url;
}

describe('media materialization through the document peer', () => {
  let peer: RunningPeer<BuiltDocumentPeer>;
  let docx: Uint8Array;
  let parsed: QasOutput;

  before(async () => {
    peer = await startDocumentPeer({
      mongoUri: testMongoUri(),
      dbName: testDbName('peer_documents', import.meta.url),
      dropDatabaseOnClose: true,
    });
    docx = await twoPictureDocx();
    parsed = parseDocx(docx);
  });
  after(async () => peer?.close());

  it('uploads each package picture, registers it for the organization and rewrites the reference', async () => {
    const images = mediaOf(parsed).filter((m) => m.kind === 'image');
    assert.equal(new Set(images.map((m) => m.object_key)).size, 2, 'the document has two distinct pictures');
    const { output, materialized, failed } = await materializeMedia(parsed, docx, {
      documents: new DocumentClient({ baseUrl: peer.url }),
      scope: SCOPE,
    });
    assert.equal(failed, 0);
    assert.equal(materialized, new Set(images.map((m) => m.object_key)).size);
    const zip = openZip(docx);
    for (const [i, m] of mediaOf(output).entries()) {
      assert.match(String(m.media_asset_id), /^[0-9a-f-]{36}$/);
      assert.equal(m.url, `/api/storage/media-assets/${String(m.media_asset_id)}/content`);
      const res = await fetch(`${peer.url}${String(m.url)}`, { headers: { 'X-Organization-Id': 'org-a' } });
      assert.equal(res.status, 200);
      const original = zip.read(String(images[i]!.object_key));
      assert.ok(
        Buffer.compare(Buffer.from(await res.arrayBuffer()), Buffer.from(original)) === 0,
        'same bytes as in the package',
      );
      const asset = await peer.built.deps.models.MediaAsset.findById(m.media_asset_id).lean();
      assert.equal(asset?.organizationId, 'org-a');
      assert.equal(asset?.ownerId, 'teacher-1');
    }
    assert.ok(!output.warnings.some((w) => w.code === IMAGE_MATERIALIZE_FAILED));
    assert.equal(output.stats.images_materialized, materialized);
    assert.equal(mediaOf(parsed)[0]!.media_asset_id, null, 'the input output is not changed');
  });

  it('a picture that cannot be materialized keeps its reference and warns; the others are rewritten', async () => {
    const broken: QasOutput = {
      ...parsed,
      questions: parsed.questions.map((q, i) =>
        i === 1
          ? {
              ...q,
              media: [
                ...(q.media as Media[]),
                {
                  media_asset_id: null,
                  url: 'word/media/missing.png',
                  object_key: 'word/media/missing.png',
                  content_type: 'image/png',
                  kind: 'image',
                  index: 9,
                },
              ],
            }
          : q,
      ),
    };
    const { output, failed } = await materializeMedia(broken, docx, {
      documents: new DocumentClient({ baseUrl: peer.url }),
      scope: SCOPE,
    });
    assert.equal(failed, 1);
    const media = output.questions[1]!.media as Media[];
    const kept = media.find((m) => m.index === 9)!;
    assert.equal(kept.url, 'word/media/missing.png');
    assert.equal(kept.media_asset_id, null);
    assert.ok(media.filter((m) => m.index !== 9).every((m) => typeof m.media_asset_id === 'string'));
    const warnings = output.warnings.filter((w) => w.code === IMAGE_MATERIALIZE_FAILED);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.question_id, output.questions[1]!.id);
    assert.equal(mediaOf(output).length, mediaOf(broken).length, 'no reference dropped');
  });

  it('with the document service down every picture keeps its reference, each with a warning', async () => {
    const { output, failed, materialized } = await materializeMedia(parsed, docx, {
      documents: new DocumentClient({ baseUrl: await deadUrl() }),
      scope: SCOPE,
    });
    assert.equal(materialized, 0);
    assert.equal(failed, 2);
    assert.deepEqual(mediaOf(output), mediaOf(parsed));
    assert.equal(output.warnings.filter((w) => w.code === IMAGE_MATERIALIZE_FAILED).length, 2);
  });

  it('without a document service nothing is uploaded: references stay, one DOCX_MEDIA_NOT_MATERIALIZED', async () => {
    const before = await peer.built.deps.models.MediaAsset.countDocuments({});
    const { output } = await materializeMedia(parsed, docx, { scope: SCOPE });
    assert.deepEqual(mediaOf(output), mediaOf(parsed));
    assert.deepEqual(output.warnings.filter((w) => w.code === MEDIA_NOT_MATERIALIZED).length, 1);
    assert.equal(output.stats.images_pending, 2);
    assert.equal(await peer.built.deps.models.MediaAsset.countDocuments({}), before);
  });

  it('without an organization to own them, pictures are not uploaded and each warns', async () => {
    const { output, failed } = await materializeMedia(parsed, docx, {
      documents: new DocumentClient({ baseUrl: peer.url }),
    });
    assert.equal(failed, 2);
    assert.deepEqual(mediaOf(output), mediaOf(parsed));
  });

  it('a document without pictures is returned as it is', async () => {
    const plain = await makeDocx(['Câu 1. Một cộng một?', 'A. 1', '[[r:B. 2]]']);
    const out = parseDocx(plain);
    const { output, materialized, failed } = await materializeMedia(out, plain, { scope: SCOPE });
    assert.equal(materialized + failed, 0);
    assert.deepEqual(output.warnings, out.warnings);
  });
});
