export type MediaKind = 'image' | 'ole_object' | 'equation_object';

export interface MediaRef {
  /** document order, 1-based */
  index: number;
  rel_id: string;
  target: string;
  kind: MediaKind;
}

/** A run's look: what a teacher may use to mark the right option. `color` is a 6-digit hex, null for automatic or black. */
export interface Look {
  red: boolean;
  underline: boolean;
  highlight: boolean;
  bold: boolean;
  italic: boolean;
  color: string | null;
}

export const PLAIN: Look = { red: false, underline: false, highlight: false, bold: false, italic: false, color: null };

export interface Seg extends Look {
  kind: 'text' | 'math' | 'media';
  text: string;
  media?: MediaRef;
  latex?: string;
}

export interface Para {
  kind: 'p';
  index: number;
  segs: Seg[];
  autoLabel?: string;
  autoLevel?: number;
  /** the Word list (w:numId) the number counts in: a question's options may be a list of their own */
  autoList?: string;
  /** an item of a bulleted (or unnumbered) Word list */
  bullet?: boolean;
  /** how Word draws its number: the paragraph mark's run properties */
  labelLook?: Look;
}

export interface Table {
  kind: 'table';
  index: number;
  rows: Para[][][];
}

export type Block = Para | Table;

export interface Warning {
  code: string;
  message: string;
  question_id?: string;
}

export function plainSeg(text: string): Seg {
  return { kind: 'text', text, ...PLAIN };
}

/** Appends in a loop: `to.push(...items)` passes every item as an argument and overflows the stack on a huge list. */
export function pushAll<T>(to: T[], items: Iterable<T>): void {
  for (const item of items) to.push(item);
}
