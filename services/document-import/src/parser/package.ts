import { DocxError } from './errors.js';
import { parseXml, kids, type XEl } from './xml.js';
import { DEFAULT_LIMITS, openZip, type ZipLimits, type ZipReader } from './zip.js';

export interface DocxPackage {
  document: XEl;
  numbering: XEl | undefined;
  styles: XEl | undefined;
  /** relationship id → target path inside the package (word/media/image1.png) */
  rels: Map<string, string>;
  zip: ZipReader;
}

// A parsed part takes several times its size in memory; Word's largest real parts are a few MB.
export const MAX_XML_PART_BYTES = 32 * 1024 * 1024;

function readXml(zip: ZipReader, name: string): XEl {
  const bytes = zip.read(name);
  if (bytes.length > MAX_XML_PART_BYTES) throw new DocxError('DOCX_TOO_LARGE', `${name} is larger than 32 MB`);
  // Buffer's native UTF-8 decoder is several times faster than TextDecoder on large parts.
  return parseXml(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), name);
}

function readRels(zip: ZipReader): Map<string, string> {
  const rels = new Map<string, string>();
  const name = 'word/_rels/document.xml.rels';
  if (!zip.has(name)) return rels;
  for (const r of kids(readXml(zip, name), 'Relationship')) {
    const id = r.attrs.Id;
    const target = r.attrs.Target;
    if (!id || !target || r.attrs.TargetMode === 'External') continue;
    rels.set(id, target.startsWith('/') ? target.slice(1) : `word/${target}`);
  }
  return rels;
}

export function readDocxPackage(bytes: Uint8Array, limits: ZipLimits = DEFAULT_LIMITS): DocxPackage {
  const zip = openZip(bytes, limits);
  if (!zip.has('[Content_Types].xml') || !zip.has('word/document.xml')) {
    throw new DocxError('DOCX_MISSING_DOCUMENT', 'not a Word document: word/document.xml is missing');
  }
  readXml(zip, '[Content_Types].xml');
  const document = readXml(zip, 'word/document.xml');
  const numbering = zip.has('word/numbering.xml') ? readXml(zip, 'word/numbering.xml') : undefined;
  const styles = zip.has('word/styles.xml') ? readXml(zip, 'word/styles.xml') : undefined;
  return { document, numbering, styles, rels: readRels(zip), zip };
}
