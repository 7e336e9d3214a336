// How much structure a document may have, counted while its XML is read: bytes alone do not bound the work or the
// memory (12 MB of tiny elements is millions of objects). Measured over the real corpus in PARSER.md ("Limits").
import { DocxError } from './errors.js';

export interface ComplexityLimits {
  /** elements and text nodes, over every XML part read (document, numbering, styles, relationships, types) */
  maxXmlNodes: number;
  /** element nesting in any part */
  maxDepth: number;
  /** w:p, in every part read */
  maxParagraphs: number;
  /** w:r */
  maxRuns: number;
  /** w:tc */
  maxTableCells: number;
  /** w:abstractNum and w:num */
  maxNumberingDefinitions: number;
  /** w:style */
  maxStyles: number;
}

export const DEFAULT_COMPLEXITY: ComplexityLimits = {
  maxXmlNodes: 1_000_000,
  maxDepth: 128,
  maxParagraphs: 100_000,
  maxRuns: 300_000,
  maxTableCells: 50_000,
  maxNumberingDefinitions: 10_000,
  maxStyles: 10_000,
};

type Counted = 'maxParagraphs' | 'maxRuns' | 'maxTableCells' | 'maxNumberingDefinitions' | 'maxStyles';

// A switch, not a lookup table: element names are fresh strings, and hashing each one cost more than the count.
function counted(name: string): Counted | undefined {
  switch (name) {
    case 'w:p':
      return 'maxParagraphs';
    case 'w:r':
      return 'maxRuns';
    case 'w:tc':
      return 'maxTableCells';
    case 'w:abstractNum':
    case 'w:num':
      return 'maxNumberingDefinitions';
    case 'w:style':
      return 'maxStyles';
    default:
      return undefined;
  }
}

const WHAT: Record<Counted | 'maxXmlNodes', string> = {
  maxXmlNodes: 'XML nodes',
  maxParagraphs: 'paragraphs (w:p)',
  maxRuns: 'runs (w:r)',
  maxTableCells: 'table cells (w:tc)',
  maxNumberingDefinitions: 'numbering definitions (w:abstractNum, w:num)',
  maxStyles: 'styles (w:style)',
};

export function tooComplex(part: string, what: string, limit: number): DocxError {
  return new DocxError('DOCX_TOO_COMPLEX', `${part} is too complex: more than ${limit} ${what}`, {
    details: { part, limit: what, max: limit },
  });
}

/** One document's counts, shared by every part read from it. */
export class ComplexityBudget {
  private nodes = 0;
  private readonly counts: Record<Counted, number> = {
    maxParagraphs: 0,
    maxRuns: 0,
    maxTableCells: 0,
    maxNumberingDefinitions: 0,
    maxStyles: 0,
  };

  constructor(readonly limits: ComplexityLimits = DEFAULT_COMPLEXITY) {}

  text(part: string): void {
    if (++this.nodes > this.limits.maxXmlNodes) throw tooComplex(part, WHAT.maxXmlNodes, this.limits.maxXmlNodes);
  }

  element(part: string, name: string, depth: number): void {
    this.text(part);
    if (depth > this.limits.maxDepth) throw tooComplex(part, 'levels of nested elements', this.limits.maxDepth);
    const key = counted(name);
    if (!key) return;
    const n = ++this.counts[key];
    if (n > this.limits[key]) throw tooComplex(part, WHAT[key], this.limits[key]);
  }
}
