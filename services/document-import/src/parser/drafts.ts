import type { KeyEntry } from './keys.js';
import type { Line } from './lines.js';
import type { PartHint } from './patterns.js';
import type { Seg } from './types.js';

export interface LabeledDraft {
  label: string;
  segs: Seg[];
}

export interface QDraft {
  id: string;
  number: number;
  part: string | null;
  partHint: PartHint;
  group_id: string | null;
  stem: Line[];
  options: LabeledDraft[];
  subs: LabeledDraft[];
  answerLines: string[];
  solution: Line[];
  tables: number;
  points: number | null;
  tfTable: Map<string, boolean> | null;
  para_start: number;
  para_end: number;
  mode: 'stem' | 'options' | 'subs' | 'solution';
}

export type GroupKind = 'PART' | 'SECTION' | 'PASSAGE';

export interface GroupDraft {
  group_id: string;
  kind: GroupKind;
  parent_group_id: string | null;
  title: string;
  from: number | null;
  to: number | null;
  part: string | null;
  content: Line[];
}

export interface Structure {
  questions: QDraft[];
  groups: GroupDraft[];
  keys: KeyEntry[];
}

export interface State extends Structure {
  cur: QDraft | null;
  group: GroupDraft | null;
  /** the open headings, outermost first */
  open: GroupDraft[];
  part: string | null;
  partHint: PartHint;
  keyMode: boolean;
}
