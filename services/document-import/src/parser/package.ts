import { DocxError } from './errors.js';
import { ComplexityBudget, DEFAULT_COMPLEXITY, type ComplexityLimits } from './limits.js';
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

/** Every limit a document is read under: the archive's (zip.ts) and its structure's (limits.ts). */
export type DocxLimits = ZipLimits & ComplexityLimits;

// A parsed part takes several times its size in memory; Word's largest real parts are a few MB.
export const MAX_XML_PART_BYTES = 32 * 1024 * 1024;

interface Reading {
  zip: ZipReader;
  budget: ComplexityBudget;
}

function readXml(r: Reading, name: string): XEl {
  // Inflation stops at the part limit: a larger part never gets its memory (a stored one is checked here).
  const bytes = r.zip.read(name, MAX_XML_PART_BYTES);
  if (bytes.length > MAX_XML_PART_BYTES) throw new DocxError('DOCX_TOO_LARGE', `${name} is larger than 32 MB`);
  // Buffer's native UTF-8 decoder is several times faster than TextDecoder on large parts.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return parseXml(text, name, r.budget);
}

function readRels(r: Reading): Map<string, string> {
  const rels = new Map<string, string>();
  const name = 'word/_rels/document.xml.rels';
  if (!r.zip.has(name)) return rels;
  for (const rel of kids(readXml(r, name), 'Relationship')) {
    const id = rel.attrs.Id;
    const target = rel.attrs.Target;
    if (!id || !target || rel.attrs.TargetMode === 'External') continue;
    rels.set(id, target.startsWith('/') ? target.slice(1) : `word/${target}`);
  }
  return rels;
}

export function readDocxPackage(bytes: Uint8Array, limits: Partial<DocxLimits> = {}): DocxPackage {
  const zip = openZip(bytes, { ...DEFAULT_LIMITS, ...limits });
  const r: Reading = { zip, budget: new ComplexityBudget({ ...DEFAULT_COMPLEXITY, ...limits }) };
  if (!zip.has('[Content_Types].xml') || !zip.has('word/document.xml')) {
    throw new DocxError('DOCX_MISSING_DOCUMENT', 'not a Word document: word/document.xml is missing');
  }
  readXml(r, '[Content_Types].xml');
  const document = readXml(r, 'word/document.xml');
  const numbering = zip.has('word/numbering.xml') ? readXml(r, 'word/numbering.xml') : undefined;
  const styles = zip.has('word/styles.xml') ? readXml(r, 'word/styles.xml') : undefined;
  return { document, numbering, styles, rels: readRels(r), zip };
}
