// Shared by the document-import API tests: headers, DOCX files built by the tests, hostile files.
import http from 'node:http';
import { strToU8, zipSync } from 'fflate';
import { makeDocx } from '../parser/support/build-docx.js';

export interface Who {
  userId?: string;
  organizationId?: string;
  role?: string;
}

export const teacher = (userId = 't1', organizationId = 'org-a'): Who => ({ userId, organizationId, role: 'TEACHER' });

export function headers(who: Who): Record<string, string> {
  const h: Record<string, string> = {};
  if (who.userId) h['X-User-Id'] = who.userId;
  if (who.organizationId) h['X-Organization-Id'] = who.organizationId;
  if (who.role) h['X-User-Role'] = who.role;
  return h;
}

/** Two single-choice questions with answer lines, one red-marked answer. */
export async function simpleDocx(): Promise<Buffer> {
  const bytes = await makeDocx([
    'Câu 1. 1 + 1 = ?',
    'A. 1\tB. 2\tC. 3\tD. 4',
    'Đáp án: B',
    'Câu 2. Thủ đô của Việt Nam?',
    'A. Huế\t[[r:B. Hà Nội]]\tC. Đà Nẵng\tD. Sài Gòn',
  ]);
  return Buffer.from(bytes);
}

/** A valid DOCX in which no question can be found: a notice, a paragraph of prose and a small table. */
export async function noticeDocx(): Promise<Buffer> {
  const bytes = await makeDocx([
    'Thông báo họp phụ huynh',
    'Thời gian: sáng thứ Bảy.',
    { table: [['Địa điểm', 'Phòng 204']] },
  ]);
  return Buffer.from(bytes);
}

/** What the parser reports having seen in noticeDocx(). */
export const NOTICE_SEEN = {
  paragraphs: 2,
  tables: 1,
  firstLines: ['Thông báo họp phụ huynh', 'Thời gian: sáng thứ Bảy.', 'Địa điểm | Phòng 204'],
};

const CT = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/** A 40 MB document.xml of zeros squeezed under 1 MB: refused by ratio while inflating. */
export function zipBomb(): Buffer {
  return Buffer.from(
    zipSync(
      { '[Content_Types].xml': strToU8(CT), 'word/document.xml': new Uint8Array(40 * 1024 * 1024) },
      { level: 9 },
    ),
  );
}

/** A billion-laughs document.xml: refused for its DOCTYPE before any entity is expanded. */
export function entityExpansion(): Buffer {
  const lol =
    '<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">';
  const xml = `<?xml version="1.0"?><!DOCTYPE w:document [${lol}]><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&c;</w:t></w:r></w:p></w:body></w:document>`;
  return Buffer.from(zipSync({ '[Content_Types].xml': strToU8(CT), 'word/document.xml': strToU8(xml) }));
}

/** A ZIP without word/document.xml. */
export function notAWordPackage(): Buffer {
  return Buffer.from(zipSync({ '[Content_Types].xml': strToU8(CT), 'a.txt': strToU8('hello') }));
}

export async function until(what: string, cond: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface RawResponse {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A multipart request whose body the test writes piece by piece and may never end. */
export function rawUpload(url: string, path: string, who: Who, fileName = 'de-thi.docx') {
  const boundary = 'b0undary7';
  const req = http.request(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...headers(who) },
  });
  const response = new Promise<RawResponse>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
  });
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  req.write(head);
  return { req, response };
}

/**
 * Sends a whole multipart upload of `bytes` as `fileName` the way a real client does: with a
 * Content-Length, chunk after chunk, waiting for each to drain. Resolves with the answer only if
 * every byte could be sent; a connection closed under the sender rejects (EPIPE, ECONNRESET).
 */
export function sendUpload(
  url: string,
  path: string,
  who: Who,
  file: { name: string; bytes: Buffer },
): Promise<RawResponse> {
  const { name: fileName, bytes } = file;
  const boundary = 'b0undary9';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const body = Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return new Promise<RawResponse>((resolve, reject) => {
    const req = http.request(`${url}${path}`, {
      method: 'POST',
      agent: false,
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(body.length),
        ...headers(who),
      },
    });
    let answer: RawResponse | undefined;
    let sent = false;
    const settle = () => (answer && sent ? resolve(answer) : undefined);
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, body: text, headers: res.headers };
        settle();
      });
    });
    const write = async () => {
      for (let at = 0; at < body.length; at += 16 * 1024) {
        if (!req.write(body.subarray(at, at + 16 * 1024))) await new Promise((r) => req.once('drain', r));
      }
      req.end(() => {
        sent = true;
        settle();
      });
    };
    write().catch(reject);
  });
}

/** Parses a text/event-stream body into its events (comments skipped). */
export function sseEvents(body: string): Array<{ event: string; data: unknown }> {
  return body
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l && !l.startsWith(':')))
    .filter((lines) => lines.some((l) => l.startsWith('event: ')))
    .map((lines) => ({
      event: lines.find((l) => l.startsWith('event: '))!.slice(7),
      data: JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)) as unknown,
    }));
}
