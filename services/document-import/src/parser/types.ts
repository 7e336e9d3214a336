export type MediaKind = 'image' | 'ole_object' | 'equation_object';

export interface MediaRef {
  /** document order, 1-based */
  index: number;
  rel_id: string;
  target: string;
  kind: MediaKind;
}

export interface Seg {
  kind: 'text' | 'math' | 'media';
  text: string;
  red: boolean;
  underline: boolean;
  highlight: boolean;
  media?: MediaRef;
  latex?: string;
}

export interface Para {
  kind: 'p';
  index: number;
  segs: Seg[];
  autoLabel?: string;
  autoLevel?: number;
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
