// A corpus document and its known answers, apart from the builders (corpus.ts, corpus-layout.ts),
// which both use them without importing each other in a loop.
import type { Block } from './build-docx.js';

/** One question's known place, answer and type. */
export interface Truth {
  part: string | null;
  number: number;
  answer: unknown;
  type: string;
  /** how the title of the question's group begins, when the document has groups */
  group?: string;
}

/** A generated document with its truth. */
export interface CorpusDoc {
  convention: string;
  blocks: Block[];
  truth: Truth[];
  columns?: number;
}
