import type { KeyEntry } from './keys.js';
import type { CellPlace, Line } from './lines.js';
import type { PartHint } from './patterns.js';
import type { Look, Seg } from './types.js';

/** How an option was marked as the answer in its own text: a leading `*`, a trailing check mark, an `x` cell. */
export type Marker = 'star' | 'check' | 'column' | 'letter';

export interface LabeledDraft {
  label: string;
  segs: Seg[];
  /** the lines that continue it, kept apart so appending stays linear and a new question can take them back */
  more: Line[];
  /** index in `more` after the last blank paragraph */
  gap: number;
  marker?: Marker;
  /** the look of a Word number the option was lettered from (its text holds no label) */
  labelLook?: Look;
  /** the label was written `a.` rather than `a)` */
  dot?: boolean;
}

/** Where options without letters came from; one question's options come from one kind. */
export type UnletteredKind = 'bullet' | 'list' | 'cell' | 'block' | 'box';

/** How a question's start was written: the word `Câu`/`Question`, a bare number, Word numbering, `[N]`, or nothing. */
export type LabelKind = 'word' | 'bare' | 'auto' | 'bracket' | 'implicit';

export interface QDraft {
  id: string;
  number: number;
  labelKind: LabelKind;
  part: string | null;
  partHint: PartHint;
  group_id: string | null;
  stem: Line[];
  options: LabeledDraft[];
  subs: LabeledDraft[];
  /** the raw values of its key lines (`Đáp án: C` → `C`) */
  answerLines: string[];
  /** a key field was laid out but left empty (`Answer:`): the question looks keyed */
  keyField?: boolean;
  /** keys removed from the student-visible text (`… → Sai`), as found */
  removedKeys?: string[];
  solution: Line[];
  tables: number;
  points: number | null;
  tfTable: Map<string, boolean> | null;
  para_start: number;
  para_end: number;
  /** `answered`: after a key line, whose following lines are kept as the solution but may still be a new label */
  mode: 'stem' | 'options' | 'subs' | 'answered' | 'solution';
  /** where the lines after its key line begin in `solution` */
  answeredAt?: number;
  /** a Word-numbered question's list (w:numId) */
  autoList?: string;
  /** options came from a list without letters (bullets, NukeViet lines): letters are given by order */
  lettersByOrder?: UnletteredKind;
  /** Word list items after its options were taken as its explanation */
  explained?: boolean;
  /** the table cell its stem began in, for a question laid out in a table: later cells are its options */
  stemCell?: CellPlace;
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
  /** the conventions met on the way (`label:bare`, `options:bullets`, `exam-table`…), for the document's stats */
  conventions: Set<string>;
  /** Vietnamese labels were met (`Câu`, `Bài`, `PHẦN`): a)…d) are then true/false statements */
  vietnamese: boolean;
}

/** One way to read a document's layout; the structure reader tries the candidates and keeps the best (structure.ts). */
export interface Reading {
  /** Word-numbered items (`1)`, `2)` …, restarting under each question) after a typed question label are its
   * options, lettered by order, rather than questions of their own */
  listOptions: boolean;
  /** questions are typed (`34)`, `Câu 2.`): a Word-numbered item never starts one, and after a question's options
   * it is the question's explanation */
  typedOnly: boolean;
  /** questions have no labels: a bulleted list after text that no question holds (none yet, or an unlabelled one
   * is done) starts a question, that text its stem and the bullets its options */
  unlabelledStems?: boolean;
}

export interface State extends Structure {
  reading: Reading;
  /** the last number of the key list on the line before, which a wrapped line goes on from */
  keyRun?: number | null;
  cur: QDraft | null;
  group: GroupDraft | null;
  /** the open headings, outermost first */
  open: GroupDraft[];
  part: string | null;
  partHint: PartHint;
  keyMode: boolean;
  /** lines outside any question since the last heading or blank paragraph (the stem of an unlabelled question) */
  loose: Line[];
  /** where the lines after the last blank paragraph begin in `loose` */
  looseGap: number;
  /** where the lines between the last two blank paragraphs that had text between them begin in `loose`: the stem,
   * when a blank paragraph follows it before its options */
  looseRun: number;
  /** a blank paragraph came since the last line */
  gap: boolean;
  /** in a key or solutions section: the question the last `Câu N` line named */
  keyQuestion: number | null;
  /** the document has no labels: blank paragraphs separate its questions */
  blocks: boolean;
  /** the document has bulleted paragraphs */
  bulleted?: boolean;
  /** the paragraphs (by index) whose next non-blank paragraph is item 1, at level 0, of another Word list than
   * their own: a list item there is a question over options of its own, not an option */
  overLists?: Set<number>;
}
