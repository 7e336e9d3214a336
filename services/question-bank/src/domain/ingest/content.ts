// Pure: rich content, media references and formula references of one imported question. Media
// stay references to the document service's objects (asset id, URL, object key, type), never
// bytes; formulas keep LaTeX and any HTML/MathML both as formula refs and inside contentJson.
import type { FormulaRefRow, MediaRefRow } from '../../store/question-models.js';
import { childId } from './ids.js';
import type { IngestFormula, IngestMedia } from './types.js';

// `$latex$` (the parser's inline equations) and `[[media:N]]` (its picture placeholders).
const TOKEN = /\$([^$\n]+)\$|\[\[media:(\d+)\]\]/g;

type Node = Record<string, unknown>;

const defined = (obj: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== null));

export function mediaRefsOf(media: IngestMedia[] | undefined, versionId: string): MediaRefRow[] {
  return (media ?? []).map(
    (m, i) =>
      defined({
        id: childId(versionId, 'media', i),
        mediaAssetId: m.media_asset_id,
        url: m.url,
        objectKey: m.object_key,
        mimeType: m.content_type,
        kind: m.kind,
        index: m.index,
        width: m.width,
        height: m.height,
        alt: m.alt,
        owner: 'document-service',
      }) as unknown as MediaRefRow,
  );
}

export function formulaRefsOf(formulas: IngestFormula[] | undefined, versionId: string): FormulaRefRow[] {
  return (formulas ?? []).map(
    (f, i) =>
      defined({ id: childId(versionId, 'formula', i), latex: f.latex, html: f.html, mathml: f.mathml }) as never,
  );
}

interface Refs {
  media: MediaRefRow[];
  formulas: FormulaRefRow[];
}

function mathNode(latex: string, refs: Refs, used: Set<string>): Node {
  const ref = refs.formulas.find((f) => f.latex === latex && !used.has(f.id));
  if (ref) used.add(ref.id);
  return {
    type: 'math_inline',
    attrs: defined({ latex, formulaRefId: ref?.id, html: ref?.html, mathml: ref?.mathml }),
  };
}

function mediaNode(index: number, refs: Refs): Node {
  const ref = refs.media.find((m) => (m as unknown as { index?: number }).index === index);
  return { type: 'image', attrs: defined({ mediaRefId: ref?.id, index, url: ref?.url, mimeType: ref?.mimeType }) };
}

function lineNodes(line: string, refs: Refs, used: Set<string>): Node[] {
  const out: Node[] = [];
  let at = 0;
  for (const m of line.matchAll(TOKEN)) {
    if (m.index > at) out.push({ type: 'text', text: line.slice(at, m.index) });
    out.push(m[1] !== undefined ? mathNode(m[1], refs, used) : mediaNode(Number(m[2]), refs));
    at = m.index + m[0].length;
  }
  if (at < line.length) out.push({ type: 'text', text: line.slice(at) });
  return out;
}

/** One paragraph per line; equations become `math_inline` nodes, pictures `image` nodes. */
export function richDocOf(text: string, refs: Refs): Node {
  const used = new Set<string>();
  const paragraphs = text.split(/\r?\n/).map((line) => {
    const content = lineNodes(line, refs, used);
    return content.length > 0 ? { type: 'paragraph', content } : { type: 'paragraph' };
  });
  return { type: 'doc', content: paragraphs };
}
