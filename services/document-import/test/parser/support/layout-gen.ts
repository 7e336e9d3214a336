// Seeded exam layouts that combine the teachers' conventions independently (issue 32, item 4). Each document picks one
// value per dimension (language, label scheme, option layout, option count, answer marking, question kinds, noise),
// a few per-question variations, and writes 3–25 questions with their truth. layout-gen.test.ts parses them and
// checks what any reader of the document could tell.
//
// The generator never writes a document a human could not read either: combinations that would be ambiguous are
// excluded where the dimensions are drawn (see `constrain`), e.g. bold answers where every option label is bold, a key
// list by number when numbers restart or repeat, lower-case a) options in a Vietnamese exam marked only by format
// (there a)–d) are true/false statements), explanations or coloured decoys in a keyless paper.
import type { Cell, NumPara, RawBlock } from './raw-docx.js';

// ---- PRNG (mulberry32) ----

export class Rng {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = Math.imul(this.s ^ (this.s >>> 15), 1 | this.s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    const total = pairs.reduce((n, [, w]) => n + w, 0);
    let x = this.next() * total;
    for (const [v, w] of pairs) if ((x -= w) < 0) return v;
    return pairs[pairs.length - 1]![0];
  }

  /** k distinct items */
  sample<T>(items: readonly T[], k: number): T[] {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a.slice(0, k);
  }
}

// ---- dimensions ----

export type Lang = 'vi' | 'en' | 'de' | 'it';
export const LABELS = [
  'cau-colon',
  'cau-dot',
  'question-dot',
  'question-colon',
  'bare-dot',
  'bare-paren',
  'q-dot',
  'auto-word',
  'auto-num',
  'none-prefix',
  'none-bare',
] as const;
export type LabelScheme = (typeof LABELS)[number];
export const LAYOUTS = [
  'para',
  'tabs',
  'soft',
  'auto-letter',
  'auto-numeric',
  'bullets',
  'table-rows',
  'table-grid',
  'question-table',
  'bank-table',
] as const;
export type Layout = (typeof LAYOUTS)[number];
export const MARKINGS = [
  'red',
  'bold',
  'underline',
  'highlight',
  'key-line',
  'typed-letter',
  'star',
  'key-list',
  'key-table',
  'none',
] as const;
export type Marking = (typeof MARKINGS)[number];
export type OptionStyle = 'A.' | 'A)' | '(A)' | 'a.' | 'a)';
type Extent = 'whole' | 'label' | 'body';

export interface Dims {
  lang: Lang;
  label: LabelScheme;
  /** the question labels in bold */
  labelBold: boolean;
  /** Word's format of auto-numbered questions (`%1.`, `%1)`), '-' for typed labels */
  labelVariant: string;
  layout: Layout;
  /** how the layout is drawn (tabs on one line or two, a table of one or two cells a row…) */
  variant: string;
  /** typed option labels, or the Word list's format for Word-numbered options ('-' for bullets) */
  optionStyle: string;
  optionLabelBold: boolean;
  optionCount: number;
  /** some questions have another option count */
  varyCount: boolean;
  marking: Marking;
  /** which part of a marked option wears the mark: whole, label, body, or mixed per question */
  extent: Extent | 'mixed' | '-';
  /** the key line's spelling, the key list's shape */
  keyForm: string;
  /** keys name lower-case options in lower case (`Đáp án: b`) */
  lowerKeys: boolean;
  /** table layouts marked by highlight: the cell's background instead of the text's */
  shade: boolean;
  multi: boolean;
  tf: boolean;
  essay: boolean;
  title: boolean;
  instructions: boolean;
  sections: boolean;
  restart: boolean;
  explanations: boolean;
  metadata: boolean;
  blanks: 'none' | 'between' | 'lots';
  repeat: boolean;
  decoyList: boolean;
  emphasis: boolean;
  questions: number;
}

export type QType = 'single' | 'multiple' | 'true-false' | 'essay';
export type Answer = string | string[] | Record<string, boolean> | null;

export interface QTruth {
  /** 1-based order in the document */
  position: number;
  /** the number written, null without one */
  number: number | null;
  type: QType;
  /** options of a choice question, statements of a true/false group, 0 for an essay */
  options: number;
  optionTexts: string[];
  answer: Answer;
  /** the stem's text (its first paragraph), without the label */
  stem: string;
  /** texts near the question that are not its stem: its options, keys, explanations, the next stem… */
  foreign: string[];
  /** per-question variations */
  vars: Record<string, string>;
}

export interface Exam {
  seed: number;
  dims: Dims;
  blocks: RawBlock[];
  truth: QTruth[];
  keyless: boolean;
}

// ---- words ----

const VI_NOUNS = [
  'giá trị',
  'biểu thức',
  'phương trình',
  'tam giác',
  'đường tròn',
  'học sinh',
  'thành phố',
  'dòng sông',
  'nhiệt độ',
  'vận tốc',
  'khối lượng',
  'diện tích',
  'chu vi',
  'bài toán',
  'kết quả',
  'hình vuông',
  'lớp học',
  'mùa xuân',
  'bờ biển',
  'ngọn núi',
  'tác giả',
  'nhân vật',
  'tế bào',
  'nguyên tử',
  'dung dịch',
  'quốc gia',
  'lịch sử',
  'văn bản',
  'thí nghiệm',
  'năng lượng',
];
const VI_LINKS = ['của', 'trong', 'với', 'theo', 'khi có', 'tại', 'gắn với'];
const VI_VERBS = ['Tính', 'Xác định', 'Tìm', 'Cho biết', 'So sánh', 'Nêu', 'Chỉ ra', 'Hãy tìm'];
const VI_TAILS = ['là gì?', 'bằng bao nhiêu?', 'như thế nào?', 'là:', 'là bao nhiêu?'];
const VI_OPTIONS = [
  'quả cam',
  'con mèo',
  'ngôi nhà',
  'chiếc xe',
  'bông hoa',
  'cây tre',
  'cánh đồng',
  'con thuyền',
  'ngọn đèn',
  'tấm gương',
  'chiếc lá',
  'hạt gạo',
  'ấm trà',
  'con đường',
  'cái bàn',
  'bức tranh',
  'viên phấn',
  'cơn mưa',
  'tiếng chim',
  'áng mây',
  'chiếc nón',
  'mái chèo',
  'sợi chỉ',
  'giọt sương',
];
const EN_NOUNS = [
  'river',
  'mountain',
  'teacher',
  'library',
  'window',
  'garden',
  'planet',
  'engine',
  'market',
  'village',
  'island',
  'kitchen',
  'weather',
  'bridge',
  'forest',
  'triangle',
  'velocity',
  'history',
  'student',
  'painter',
  'doctor',
  'harbor',
  'valley',
  'desert',
  'museum',
  'station',
  'factory',
  'sentence',
  'equation',
  'festival',
];
const EN_VERBS = ['describe', 'cross', 'follow', 'support', 'connect', 'contain', 'reach', 'protect'];
const third = (v: string): string => (/(?:ss|ch)$/.test(v) ? `${v}es` : `${v}s`);
const EN_STARTS = ['Which', 'What', 'How', 'Why', 'Where', 'When'];
const EN_OPTIONS = [
  'apple',
  'orange',
  'copper',
  'silver',
  'tiger',
  'eagle',
  'violin',
  'guitar',
  'yellow',
  'purple',
  'winter',
  'summer',
  'castle',
  'pencil',
  'rocket',
  'candle',
  'marble',
  'meadow',
  'canyon',
  'lantern',
  'saddle',
  'pepper',
  'walnut',
  'falcon',
  'cobalt',
  'ribbon',
  'timber',
  'basket',
  'velvet',
  'glacier',
];

interface Words {
  answerWord: string;
  keyForms: ((x: string) => string)[];
  explanation: string[];
  wrong: (x: string) => string;
  metadata: (r: Rng) => string;
  title: string[][];
  instructions: string;
  keyHeading: string[];
  keyHeads: [string, string];
  bankHeads: { no: string; stem: string; options: string; answer: string; explanation: string; meta: string };
  points: (n: number) => string;
  part: (i: number, kind: 'choice' | 'tf' | 'essay' | null) => string;
}

const ROMAN = ['I', 'II', 'III', 'IV'];

const WORDS: Record<Lang, Words> = {
  vi: {
    answerWord: 'Đáp án',
    keyForms: [
      (x) => `Đáp án: ${x}`,
      (x) => `Đáp án đúng: ${x}`,
      (x) => `Chọn ${x}`,
      (x) => `ĐÁP ÁN: ${x}`,
      (x) => `→ ${x}`,
    ],
    explanation: ['Giải thích:', 'Lời giải:', 'Hướng dẫn giải:'],
    wrong: (x) => `Phương án ${x} sai vì`,
    metadata: (r) =>
      r.chance(0.5)
        ? `Mức độ: ${r.pick(['Nhận biết', 'Thông hiểu', 'Vận dụng'])}`
        : `Chủ đề: ${r.pick(['Hàm số', 'Hình học', 'Ngữ pháp', 'Di truyền'])}`,
    title: [
      ['SỞ GIÁO DỤC VÀ ĐÀO TẠO HÀ NỘI', 'TRƯỜNG THPT NGUYỄN TRÃI', 'TRƯỜNG THCS LÊ LỢI'],
      ['ĐỀ KIỂM TRA GIỮA HỌC KỲ I', 'ĐỀ THI THỬ TỐT NGHIỆP THPT', 'ĐỀ KIỂM TRA CUỐI HỌC KỲ II'],
      ['Môn: Toán – Lớp 10', 'Môn: Sinh học – Lớp 12', 'Thời gian làm bài: 45 phút'],
      ['Mã đề thi: 132', 'Họ và tên: .................... Lớp: ........'],
    ],
    instructions: 'Thí sinh khoanh tròn vào phương án đúng nhất của mỗi câu hỏi.',
    keyHeading: ['ĐÁP ÁN', 'BẢNG ĐÁP ÁN'],
    keyHeads: ['Câu', 'Đáp án'],
    bankHeads: {
      no: 'STT',
      stem: 'Câu hỏi',
      options: 'Phương án',
      answer: 'Đáp án',
      explanation: 'Giải thích',
      meta: 'Mức độ',
    },
    points: (n) => `(${n} điểm)`,
    part: (i, kind) =>
      `PHẦN ${ROMAN[i]}` +
      (kind === 'choice'
        ? '. TRẮC NGHIỆM NHIỀU LỰA CHỌN'
        : kind === 'tf'
          ? '. TRẮC NGHIỆM ĐÚNG SAI'
          : kind === 'essay'
            ? '. TỰ LUẬN'
            : ''),
  },
  en: {
    answerWord: 'Answer',
    keyForms: [
      (x) => `Answer: ${x}`,
      (x) => `Correct Answer: ${x}`,
      (x) => `ANSWER: ${x}`,
      (x) => `→ ${x}`,
      (x) => `Correct answer: ${x}`,
    ],
    explanation: ['Explanation:', 'Solution:'],
    wrong: (x) => `Option ${x} is wrong because`,
    metadata: (r) =>
      r.chance(0.5)
        ? `Difficulty: ${r.pick(['Easy', 'Medium', 'Hard'])}`
        : `Category: ${r.pick(['Grammar', 'Vocabulary', 'Reading'])}`,
    title: [
      ['GREENFIELD HIGH SCHOOL', 'RIVERSIDE ACADEMY'],
      ['MID-TERM TEST – ENGLISH 10', 'FINAL EXAMINATION – GEOGRAPHY'],
      ['Time allowed: 45 minutes'],
      ['Name: ______________ Class: ______'],
    ],
    instructions: 'Choose the best answer for each of the following questions.',
    keyHeading: ['ANSWER KEY', 'Answer Key', 'ANSWERS'],
    keyHeads: ['Question', 'Answer'],
    bankHeads: {
      no: 'No.',
      stem: 'Question',
      options: 'Options',
      answer: 'Answer',
      explanation: 'Explanation',
      meta: 'Difficulty',
    },
    points: (n) => `(${n} points)`,
    part: (i, kind) =>
      `Part ${i + 1}` + (kind === 'choice' ? '. Multiple choice' : kind === 'essay' ? '. Writing' : ''),
  },
  de: {
    answerWord: 'Antwort',
    keyForms: [(x) => `Antwort: ${x}`, (x) => `Richtige Antwort: ${x}`, (x) => `Lösung: ${x}`, (x) => `→ ${x}`],
    explanation: ['Erklärung:', 'Begründung:'],
    wrong: (x) => `Option ${x} ist falsch, weil`,
    metadata: (r) =>
      r.chance(0.5)
        ? `Schwierigkeit: ${r.pick(['leicht', 'mittel', 'schwer'])}`
        : `Kategorie: ${r.pick(['Grammatik', 'Wortschatz'])}`,
    title: [['GYMNASIUM AM SEE'], ['KLASSENARBEIT ENGLISCH'], ['Zeit: 45 Minuten'], ['Name: ______________']],
    instructions: 'Wähle jeweils die richtige Antwort aus.',
    keyHeading: ['LÖSUNGEN', 'Lösungsschlüssel'],
    keyHeads: ['Frage', 'Antwort'],
    bankHeads: {
      no: 'Nr.',
      stem: 'Frage',
      options: 'Optionen',
      answer: 'Antwort',
      explanation: 'Erklärung',
      meta: 'Schwierigkeit',
    },
    points: (n) => `(${n} Punkte)`,
    part: (i, kind) =>
      `Teil ${i + 1}` + (kind === 'choice' ? ': Auswahlfragen' : kind === 'essay' ? ': Schreiben' : ''),
  },
  it: {
    answerWord: 'Risposta',
    keyForms: [(x) => `Risposta: ${x}`, (x) => `Risposta corretta: ${x}`, (x) => `→ ${x}`],
    explanation: ['Spiegazione:', 'Soluzione:'],
    wrong: (x) => `L'opzione ${x} è sbagliata perché`,
    metadata: (r) =>
      r.chance(0.5)
        ? `Difficoltà: ${r.pick(['facile', 'media', 'difficile'])}`
        : `Categoria: ${r.pick(['grammatica', 'lessico'])}`,
    title: [['LICEO SCIENTIFICO STATALE'], ['VERIFICA DI INGLESE'], ['Tempo: 45 minuti'], ['Nome: ______________']],
    instructions: 'Scegli la risposta corretta per ogni domanda.',
    keyHeading: ['SOLUZIONI', 'RISPOSTE'],
    keyHeads: ['Domanda', 'Risposta'],
    bankHeads: {
      no: 'N.',
      stem: 'Domanda',
      options: 'Opzioni',
      answer: 'Risposta',
      explanation: 'Spiegazione',
      meta: 'Difficoltà',
    },
    points: (n) => `(${n} punti)`,
    part: (i, kind) =>
      `Parte ${i + 1}` + (kind === 'choice' ? ': scelta multipla' : kind === 'essay' ? ': produzione scritta' : ''),
  },
};

const FORMAT_FLAG: Partial<Record<Marking, string>> = { red: 'r', bold: 'b', underline: 'u', highlight: 'h' };
const PER_OPTION: Marking[] = ['red', 'bold', 'underline', 'highlight', 'star'];
const LETTER_KEYS: Marking[] = ['key-line', 'typed-letter', 'key-list', 'key-table'];
function numbered(l: LabelScheme): boolean {
  return !l.startsWith('none');
}

function wordLabel(l: LabelScheme): boolean {
  return l.startsWith('cau') || l.startsWith('question') || l === 'q-dot' || l === 'auto-word';
}

function bareLabel(l: LabelScheme): boolean {
  return l === 'bare-dot' || l === 'bare-paren';
}

// ---- drawing the dimensions ----

function drawDims(r: Rng): Dims {
  const lang = r.weighted<Lang>([
    ['vi', 45],
    ['en', 35],
    ['de', 10],
    ['it', 10],
  ]);
  const label = r.pick(LABELS);
  let layout = r.pick(LAYOUTS);
  // numeric Word options under typed bare numbers ("1." then "1) 2) 3)") read as one list: not written
  while (layout === 'auto-numeric' && bareLabel(label)) layout = r.pick(LAYOUTS);
  let marking = r.pick(MARKINGS);
  // a key list names questions by number
  while ((marking === 'key-list' || marking === 'key-table') && !numbered(label)) marking = r.pick(MARKINGS);
  const keyed = marking !== 'none';
  const labelBold = r.chance(0.3);
  // bold answers cannot be told where every option label is bold
  const optionLabelBold = marking !== 'bold' && layout !== 'bullets' && r.chance(0.2);
  const vietnameseLooking = lang === 'vi' || label.startsWith('cau');
  // lower-case a)… in a Vietnamese exam are true/false statements unless a key names a letter
  const lowerOk = !vietnameseLooking || LETTER_KEYS.includes(marking);
  let optionStyle: string;
  let variant: string;
  const upperStyles: OptionStyle[] = ['A.', 'A)', '(A)'];
  const typedStyle = (): OptionStyle => r.pick(lowerOk ? [...upperStyles, 'a.', 'a)'] : upperStyles);
  switch (layout) {
    case 'auto-letter':
      optionStyle = r.pick(lowerOk ? ['A.', 'A)', 'a.', 'a)'] : ['A.', 'A)']);
      variant = label.startsWith('auto') && optionStyle === 'A.' && r.chance(0.5) ? 'multilevel' : 'own-list';
      break;
    case 'auto-numeric':
      optionStyle = r.pick(['1)', '1.']);
      variant = label.startsWith('auto') && optionStyle === '1)' && r.chance(0.5) ? 'multilevel' : 'own-list';
      break;
    case 'bullets':
      optionStyle = '-';
      variant = '-';
      break;
    default:
      optionStyle = typedStyle();
      variant = {
        para: '-',
        tabs: r.pick(['one-line', 'two-lines']),
        soft: r.pick(['own-paragraph', 'with-stem']),
        'table-rows': r.pick(['1-cell', '2-cell']),
        'table-grid': r.pick(['2-col', 'one-row']),
        'question-table': r.pick(['1-cell', '2-cell']),
        'bank-table': `${r.pick(['header', 'no-header'])}/${r.pick(['soft', 'paras'])}`,
      }[layout as string]!;
  }
  const optionCount = r.chance(0.6) ? 4 : r.int(2, 6);
  const flag = FORMAT_FLAG[marking];
  const extent: Dims['extent'] = flag ? r.pick(['whole', 'label', 'body', 'mixed'] as const) : '-';
  // numbers as keys of numbered options: "1.2 2.3" would read as decimals, so lines and columns only
  const numericKeys = layout === 'auto-numeric';
  const keyForm =
    marking === 'key-line'
      ? String(r.int(0, WORDS[lang].keyForms.length - 1))
      : marking === 'key-list'
        ? numericKeys
          ? 'lines'
          : r.pick(['inline', 'inline-prefix', 'inline-heading', 'lines'])
        : marking === 'key-table'
          ? r.pick(numericKeys ? ['vertical', 'horizontal'] : ['vertical', 'horizontal', 'cells'])
          : '-';
  const sections = r.chance(0.35);
  const keyByNumber = marking === 'key-list' || marking === 'key-table';
  const tfOk =
    lang === 'vi' &&
    numbered(label) &&
    layout !== 'question-table' &&
    layout !== 'bank-table' &&
    ['red', 'underline', 'highlight', 'key-line', 'none'].includes(marking);
  return {
    lang,
    label,
    labelBold,
    labelVariant: label === 'auto-num' ? r.pick(['%1.', '%1)']) : '-',
    layout,
    variant,
    optionStyle,
    optionLabelBold,
    optionCount,
    varyCount: r.chance(0.15),
    marking,
    extent,
    keyForm,
    lowerKeys: optionStyle.startsWith('a') && LETTER_KEYS.includes(marking) && r.chance(0.5),
    shade: marking === 'highlight' && /table/.test(layout) && r.chance(0.5),
    multi: PER_OPTION.includes(marking) && r.chance(0.3),
    tf: tfOk && r.chance(0.35),
    essay: numbered(label) && r.chance(0.3),
    title: r.chance(0.5),
    instructions: r.chance(0.4),
    sections,
    restart: sections && !keyByNumber && r.chance(0.5),
    // an explanation in a keyless paper would give the answer away
    explanations: keyed && r.chance(0.35),
    metadata: r.chance(0.25),
    blanks: r.weighted([
      ['none', 4],
      ['between', 4],
      ['lots', 2],
    ] as const),
    repeat: numbered(label) && !label.startsWith('auto') && !keyByNumber && r.chance(0.15),
    decoyList: wordLabel(label) && r.chance(0.3),
    emphasis: r.chance(0.25),
    questions: r.int(3, 25),
  };
}

// ---- text ----

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Markup to plain text. */
export function plain(markup: string): string {
  return markup.replace(/\[\[[a-z]+:(.*?)\]\]/gs, '$1');
}

/** Text as compared: plain, NFC, blanks collapsed. */
export function norm(text: string): string {
  return plain(text).normalize('NFC').replace(/\s+/gu, ' ').trim();
}

class Texts {
  private readonly stems = new Set<string>();

  constructor(
    private readonly r: Rng,
    private readonly lang: Lang,
  ) {}

  private vi(): boolean {
    return this.lang === 'vi';
  }

  nouns(k: number): string[] {
    return this.r.sample(this.vi() ? VI_NOUNS : EN_NOUNS, k);
  }

  /** A stem with distinct first words across the document; `emphasis` writes one word as teachers write NOT. */
  stem(kind: 'choice' | 'tf' | 'essay' | 'decoy', emphasis = false): string {
    for (;;) {
      const s = this.draw(kind, emphasis);
      const head = norm(s).split(' ').slice(0, 4).join(' ');
      if (this.stems.has(head)) continue;
      this.stems.add(head);
      return s;
    }
  }

  private draw(kind: 'choice' | 'tf' | 'essay' | 'decoy', emphasis: boolean): string {
    const r = this.r;
    const n = this.nouns(4);
    const flag = r.pick(['b', 'u', 'r', 'i']);
    if (this.vi()) {
      if (kind === 'tf')
        return `Cho ${n[0]} ${r.pick(VI_LINKS)} ${n[1]} và ${n[2]}. Xét tính đúng sai của các mệnh đề sau.`;
      if (kind === 'essay')
        return `${r.pick(['Trình bày', 'Phân tích', 'Chứng minh'])} ${n[0]} ${r.pick(VI_LINKS)} ${n[1]} và ${n[2]}.`;
      if (kind === 'decoy') return `Cho ${n[0]} ${r.pick(VI_LINKS)} ${n[1]} và các phát biểu sau:`;
      const not = emphasis ? ` [[${flag}:${r.pick(['KHÔNG', 'SAI'])}]]` : '';
      return `${r.pick(VI_VERBS)} ${n[0]} ${r.pick(VI_LINKS)} ${n[1]} ${r.pick(VI_LINKS)} ${n[2]}${not} ${r.pick(VI_TAILS)}`;
    }
    if (kind === 'essay')
      return `${r.pick(['Describe', 'Discuss', 'Compare'])} the ${n[0]} and the ${n[1]} of the ${n[2]}.`;
    if (kind === 'decoy') return `Consider the ${n[0]} of the ${n[1]} and the following statements:`;
    const verb = r.pick(EN_VERBS);
    const does = emphasis ? `does [[${flag}:${r.pick(['NOT', 'NEVER'])}]] ${verb}` : third(verb);
    return `${r.pick(EN_STARTS)} ${n[0]} ${does} the ${n[1]} near the ${n[2]} of the ${n[3]}?`;
  }

  /** k option texts, distinct, none a part of another (each pool item is used once). */
  options(k: number): string[] {
    const pool = this.vi() ? VI_OPTIONS : EN_OPTIONS;
    const items = this.r.sample(pool, Math.min(pool.length, 2 * k));
    return Array.from({ length: k }, (_, i) => (this.r.chance(0.4) ? `${items[i]} ${items[k + i]}` : items[i]!));
  }

  statement(): string {
    const n = this.nouns(3);
    return this.vi()
      ? `${cap(n[0]!)} ${this.r.pick(VI_LINKS)} ${n[1]} luôn lớn hơn ${n[2]}.`
      : `The ${n[0]} of the ${n[1]} is larger than the ${n[2]}.`;
  }

  phrase(k: number): string {
    return this.nouns(k).join(this.vi() ? ' và ' : ' and ');
  }
}

// ---- writing ----

interface Noise {
  text: string;
  /** the question it belongs to (its own statements): not foreign to that one */
  owner: number | null;
}

interface OptSpec {
  letter: string;
  text: string;
  marked: boolean;
}

interface QPlan {
  type: QType;
  count: number;
  section: number;
  number: number | null;
  decoy: boolean;
  emphasis: boolean;
  extent: Extent;
  points: number | null;
}

/** A question as drawn, before it is laid out. */
interface Drawn {
  q: QPlan;
  stem: string;
  decoy: string[];
  opts: OptSpec[];
  marked: number[];
  wrong: number | null;
}

const LETTERS = 'ABCDEFG';

class Writer {
  readonly blocks: RawBlock[] = [];
  readonly truth: QTruth[] = [];
  /** noise[i]: what was written after question i's stem (noise[0]: before the first question) */
  private readonly noise: Noise[][] = [[]];
  private bank: Cell[][] | null = null;
  private readonly words: Words;
  private readonly texts: Texts;

  constructor(
    private readonly r: Rng,
    private readonly d: Dims,
  ) {
    this.words = WORDS[d.lang];
    this.texts = new Texts(r, d.lang);
  }

  private get flag(): string {
    return FORMAT_FLAG[this.d.marking] ?? '';
  }

  private get keyless(): boolean {
    return this.d.marking === 'none';
  }

  /** A paragraph (or table) that is not a question's stem. */
  private put(b: RawBlock, probe?: string, owner: number | null = null): void {
    this.blocks.push(b);
    const text = probe ?? (typeof b === 'string' ? b : 'auto' in b ? b.text : null);
    if (text !== null) this.remember(text, owner);
  }

  private remember(text: string, owner: number | null = null): void {
    const t = norm(text);
    if (t.length >= 3) this.noise.at(-1)!.push({ text: t.split(' ').slice(0, 6).join(' '), owner });
  }

  private blank(): void {
    this.blocks.push('');
  }

  // ---- labels ----

  private labelText(n: number): string {
    const l = this.d.label;
    const t = {
      'cau-colon': `Câu ${n}:`,
      'cau-dot': `Câu ${n}.`,
      'question-dot': `Question ${n}.`,
      'question-colon': `Question ${n}:`,
      'bare-dot': `${n}.`,
      'bare-paren': `${n})`,
      'q-dot': `Q ${n}.`,
      'none-prefix': this.d.lang === 'vi' ? 'Câu hỏi:' : 'Question:',
    }[l as string];
    if (t === undefined) return '';
    return this.d.labelBold ? `[[b:${t}]]` : t;
  }

  /** The Word list of auto-numbered questions (with options at level 1 in a multi-level list). */
  private questionList(): string {
    const d = this.d;
    const base =
      d.label === 'auto-word'
        ? d.lang === 'vi'
          ? 'question'
          : 'question-en'
        : d.labelVariant === '%1)'
          ? 'question-paren'
          : 'caution';
    if (this.d.variant !== 'multilevel') return base;
    return `${base}-${this.d.layout === 'auto-numeric' ? 'numeric' : 'option'}`;
  }

  /** The stem's first paragraph: its label and text. */
  private stemPara(q: QPlan, text: string): RawBlock {
    if (this.d.label.startsWith('auto')) {
      return {
        auto: this.questionList(),
        text,
        instance: this.d.restart ? q.section : 0,
        mark: this.d.labelBold ? 'b' : undefined,
      };
    }
    const label = q.number === null ? this.labelText(0) : this.labelText(q.number);
    return label ? `${label} ${text}` : text;
  }

  // ---- options ----

  private letterShown(i: number): string {
    const L = LETTERS[i]!;
    switch (this.d.optionStyle) {
      case 'A.':
        return `${L}.`;
      case 'A)':
        return `${L})`;
      case '(A)':
        return `(${L})`;
      case 'a.':
        return `${L.toLowerCase()}.`;
      case 'a)':
        return `${L.toLowerCase()})`;
      default:
        return `${L}.`;
    }
  }

  /** How a key names option i: its letter (lower-case where the labels are), or its number for 1) 2) options. */
  keyName(i: number): string {
    if (this.d.layout === 'auto-numeric') return String(i + 1);
    const lower = this.d.optionStyle.startsWith('a') && this.d.lowerKeys;
    return lower ? LETTERS[i]!.toLowerCase() : LETTERS[i]!;
  }

  private typedOption(i: number, o: OptSpec, extent: Extent, shadeMark = false): string {
    const lab = this.letterShown(i);
    const lb = this.d.optionLabelBold ? 'b' : '';
    const label = lb ? `[[b:${lab}]]` : lab;
    const f = this.flag;
    if (o.marked && f && !shadeMark) {
      if (extent === 'whole') return lb ? `[[${lb}${f}:${lab}]] [[${f}:${o.text}]]` : `[[${f}:${lab} ${o.text}]]`;
      if (extent === 'label') return `[[${lb}${f}:${lab}]] ${o.text}`;
      return `${label} [[${f}:${o.text}]]`;
    }
    const star = o.marked && this.d.marking === 'star' ? '*' : '';
    return `${star}${label} ${o.text}`;
  }

  private optionList(): string {
    const s = this.d.optionStyle;
    if (this.d.layout === 'bullets') return 'bullet';
    if (this.d.layout === 'auto-numeric') return s === '1)' ? 'numeric-paren' : 'numeric';
    return { 'A.': 'option', 'A)': 'option-paren', 'a.': 'lower', 'a)': 'lower-paren' }[s]!;
  }

  private autoOption(q: QPlan, o: OptSpec, extent: Extent): NumPara {
    const lb = this.d.optionLabelBold ? 'b' : '';
    const f = this.flag;
    const bullets = this.d.layout === 'bullets';
    // a bullet is no letter to mark, and Word does not highlight a list number with its paragraph mark
    const ext = (bullets || f === 'h') && extent === 'label' ? 'whole' : extent;
    let text = o.text;
    let mark = lb;
    if (o.marked && f) {
      if (ext !== 'label') text = `[[${f}:${o.text}]]`;
      if (ext !== 'body') mark = lb + f;
    } else if (o.marked && this.d.marking === 'star') text = `*${o.text}`;
    const multilevel = this.d.variant === 'multilevel';
    return {
      auto: multilevel ? this.questionList() : this.optionList(),
      level: multilevel ? 1 : 0,
      instance: multilevel ? (this.d.restart ? q.section : 0) : bullets ? 0 : this.truth.length + 1,
      text,
      mark: mark || undefined,
    };
  }

  private optionCell(i: number, o: OptSpec, extent: Extent): Cell {
    if (this.d.shade && o.marked) return { paras: [this.typedOption(i, o, extent, true)], shade: 'FFFF00' };
    return this.typedOption(i, o, extent);
  }

  private optionCells2(i: number, o: OptSpec, extent: Extent): Cell[] {
    const lab = this.letterShown(i);
    const lb = this.d.optionLabelBold ? 'b' : '';
    const f = this.flag;
    if (this.d.shade && o.marked) {
      return [
        { paras: [lb ? `[[b:${lab}]]` : lab], shade: 'FFFF00' },
        { paras: [o.text], shade: 'FFFF00' },
      ];
    }
    if (o.marked && f) {
      const labelCell = extent !== 'body' ? `[[${lb}${f}:${lab}]]` : lb ? `[[b:${lab}]]` : lab;
      const bodyCell = extent !== 'label' ? `[[${f}:${o.text}]]` : o.text;
      return [labelCell, bodyCell];
    }
    const star = o.marked && this.d.marking === 'star' ? '*' : '';
    return [`${star}${lb ? `[[b:${lab}]]` : lab}`, o.text];
  }

  // ---- answers ----

  private keyLine(x: string): string {
    return this.words.keyForms[Number(this.d.keyForm)]!(x);
  }

  private explanation(q: QTruth, wrong: string | null): string {
    const w = this.words;
    const decoy = `[[${this.flag || 'r'}:${this.texts.nouns(1)[0]}]]`;
    const head = `${this.r.pick(w.explanation)} ${cap(this.texts.phrase(2))}.`;
    if (wrong === null) return `${head} ${cap(this.texts.phrase(2))} ${decoy}.`;
    return `${head} ${w.wrong(wrong)} ${this.texts.phrase(2)} ${decoy}.`;
  }

  /** One or two lines (difficulty, category), each kind once. */
  private metadataLines(): string[] {
    const first = this.words.metadata(this.r);
    const second = this.words.metadata(this.r);
    return this.r.chance(0.5) && second.split(':')[0] !== first.split(':')[0] ? [first, second] : [first];
  }

  // ---- questions ----

  private startQuestion(
    q: QPlan,
    stem: string,
    t: Omit<QTruth, 'position' | 'number' | 'stem' | 'foreign' | 'vars'>,
  ): QTruth {
    const truth: QTruth = {
      ...t,
      position: this.truth.length + 1,
      number: q.number,
      stem: norm(stem),
      foreign: [],
      vars: {
        qtype: t.type,
        count: t.type === 'single' || t.type === 'multiple' ? String(t.options) : '-',
        extent: this.flag && (t.type === 'single' || t.type === 'multiple') ? q.extent : '-',
        decoy: String(q.decoy),
        emphasis: String(q.emphasis),
      },
    };
    this.truth.push(truth);
    this.noise.push([]);
    return truth;
  }

  choice(q: QPlan): void {
    const d = this.d;
    const r = this.r;
    const texts = this.texts.options(q.count);
    let marked: number[] = [];
    if (!this.keyless) {
      if (q.type === 'multiple')
        marked = r.sample([...Array(q.count).keys()], r.int(2, Math.floor(q.count / 2))).sort();
      else marked = [r.int(0, q.count - 1)];
    }
    const opts: OptSpec[] = texts.map((text, i) => ({ letter: LETTERS[i]!, text, marked: marked.includes(i) }));
    const stem = this.texts.stem(q.decoy ? 'decoy' : 'choice', q.emphasis);
    const answer: Answer = this.keyless
      ? null
      : q.type === 'multiple'
        ? marked.map((i) => LETTERS[i]!)
        : LETTERS[marked[0]!]!;
    const t = this.startQuestion(q, stem, { type: q.type, options: q.count, optionTexts: texts, answer });
    const decoyParas = q.decoy ? this.decoyParas() : [];
    const wrong = marked.length ? ([...Array(q.count).keys()].find((i) => !marked.includes(i)) ?? null) : null;
    const afterOptions = (): void => this.afterChoice(q, t, marked, wrong);

    const drawn: Drawn = { q, stem, decoy: decoyParas, opts, marked, wrong };
    if (d.layout === 'question-table') return this.questionTable(drawn);
    if (d.layout === 'bank-table') return this.bankRow(drawn);

    const first = this.stemPara(q, stem);
    const withStem = d.layout === 'soft' && d.variant === 'with-stem';
    const typed = opts.map((o, i) => this.typedOption(i, o, q.extent));
    if (withStem) {
      // the options on soft breaks under the stem, in the stem's own paragraph
      if (decoyParas.length === 0) {
        this.blocks.push(
          typeof first === 'string'
            ? `${first}\n${typed.join('\n')}`
            : { ...first, text: `${(first as NumPara).text}\n${typed.join('\n')}` },
        );
      } else {
        this.blocks.push(first);
        this.blocks.push(...decoyParas.slice(0, -1));
        this.blocks.push(`${decoyParas.at(-1)}\n${typed.join('\n')}`);
      }
      texts.forEach((x) => this.remember(x));
      return afterOptions();
    }
    this.blocks.push(first, ...decoyParas);
    if (d.blanks === 'lots' && r.chance(0.5)) this.blank();
    switch (d.layout) {
      case 'para':
        typed.forEach((o, i) => this.put(o, texts[i]));
        break;
      case 'tabs':
        if (d.variant === 'two-lines' && q.count >= 4) {
          const half = Math.ceil(q.count / 2);
          this.put(typed.slice(0, half).join('\t'), '');
          this.put(typed.slice(half).join('\t'), '');
        } else this.put(typed.join('\t'), '');
        texts.forEach((x) => this.remember(x));
        break;
      case 'soft':
        this.put(typed.join('\n'), '');
        texts.forEach((x) => this.remember(x));
        break;
      case 'auto-letter':
      case 'auto-numeric':
      case 'bullets':
        opts.forEach((o) => this.put(this.autoOption(q, o, q.extent), o.text));
        break;
      case 'table-rows':
        this.put(
          {
            table: opts.map((o, i) =>
              d.variant === '2-cell' ? this.optionCells2(i, o, q.extent) : [this.optionCell(i, o, q.extent)],
            ),
          },
          '',
        );
        texts.forEach((x) => this.remember(x));
        break;
      case 'table-grid': {
        const cells = opts.map((o, i) => this.optionCell(i, o, q.extent));
        const rows: Cell[][] = [];
        if (d.variant === 'one-row') rows.push(cells);
        else for (let i = 0; i < cells.length; i += 2) rows.push([cells[i]!, cells[i + 1] ?? '']);
        this.put({ table: rows }, '');
        texts.forEach((x) => this.remember(x));
        break;
      }
    }
    afterOptions();
  }

  private decoyParas(): string[] {
    const items = [1, 2, 3].map((i) => `${i}. ${this.texts.statement()}`);
    const close =
      this.d.lang === 'vi'
        ? 'Số phát biểu đúng trong các phát biểu trên là'
        : 'How many of the statements above are true?';
    return [...items, close];
  }

  /** The key line or typed letter, the explanation and the metadata after a question's options. */
  private afterChoice(q: QPlan, t: QTruth, marked: number[], wrong: number | null): void {
    const d = this.d;
    if (d.blanks === 'lots' && this.r.chance(0.4)) this.blank();
    if (d.marking === 'key-line') this.put(this.keyLine(this.keyName(marked[0]!)));
    if (d.marking === 'typed-letter') this.put(this.keyName(marked[0]!));
    if (d.explanations) this.put(this.explanation(t, wrong === null ? null : this.keyName(wrong)));
    if (d.metadata) this.metadataLines().forEach((m) => this.put(m));
  }

  private titleCell(q: QPlan): Cell {
    const p = this.stemPara(q, '');
    if (typeof p === 'string') return p.trim();
    return { paras: [{ ...(p as NumPara), text: '' }] };
  }

  private questionTable(c: Drawn): void {
    const { q, stem, decoy, opts, marked, wrong } = c;
    const d = this.d;
    const two = d.variant === '2-cell';
    const rows: Cell[][] = [];
    if (numbered(d.label) && d.label !== 'none-prefix') rows.push([this.titleCell(q)]);
    const stemText = d.label === 'none-prefix' ? `${this.labelText(0)} ${stem}` : stem;
    rows.push([decoy.length ? { paras: [stemText, ...decoy] } : stemText]);
    opts.forEach((o, i) => rows.push(two ? this.optionCells2(i, o, q.extent) : [this.optionCell(i, o, q.extent)]));
    const t = this.truth.at(-1)!;
    opts.forEach((o) => this.remember(o.text));
    if (marked.length && d.marking === 'key-line') {
      const x = this.keyName(marked[0]!);
      rows.push(two ? [this.words.answerWord, x] : [this.keyLine(x)]);
      this.remember(two ? `${this.words.answerWord} | ${x}` : this.keyLine(x));
    }
    if (marked.length && d.marking === 'typed-letter') rows.push([this.keyName(marked[0]!)]);
    if (d.explanations) {
      const e = this.explanation(t, wrong === null ? null : this.keyName(wrong));
      rows.push([e]);
      this.remember(e);
    }
    if (d.metadata) {
      const m = this.metadataLines().join('\n\n');
      rows.push([m]);
      this.remember(m);
    }
    this.blocks.push({ table: rows });
  }

  private bankHeader(): Cell[] {
    const h = this.words.bankHeads;
    const row: Cell[] = [];
    if (numbered(this.d.label)) row.push(h.no);
    row.push(h.stem, h.options);
    if (this.bankAnswers) row.push(h.answer);
    if (this.d.explanations) row.push(h.explanation);
    if (this.d.metadata) row.push(h.meta);
    return row;
  }

  private get bankAnswers(): boolean {
    return this.d.marking === 'key-line' || this.d.marking === 'typed-letter';
  }

  private bankRow(c: Drawn): void {
    const { q, stem, decoy, opts, marked, wrong } = c;
    const d = this.d;
    if (!this.bank) {
      this.bank = [];
      if (d.variant.startsWith('header')) this.bank.push(this.bankHeader());
    }
    const row: Cell[] = [];
    if (numbered(d.label)) {
      const p = this.stemPara(q, '');
      row.push(typeof p === 'string' ? String(q.number) : { paras: [{ ...(p as NumPara), text: '' }] });
    }
    const stemText = d.label === 'none-prefix' ? `${this.labelText(0)} ${stem}` : stem;
    row.push(decoy.length ? { paras: [stemText, ...decoy] } : stemText);
    const typed = opts.map((o, i) => this.typedOption(i, o, q.extent));
    row.push(typed.length === 0 ? '' : d.variant.endsWith('soft') ? { paras: [typed.join('\n')] } : { paras: typed });
    opts.forEach((o) => this.remember(o.text));
    if (this.bankAnswers) row.push(marked.length ? this.keyName(marked[0]!) : '');
    if (d.explanations) {
      const t = this.truth.at(-1)!;
      row.push(opts.length ? this.explanation(t, wrong === null ? null : this.keyName(wrong)) : '');
    }
    if (d.metadata) row.push(this.metadataLines()[0]!);
    this.bank.push(row);
  }

  flushBank(): void {
    if (!this.bank) return;
    this.blocks.push({ table: this.bank });
    this.bank = null;
  }

  trueFalse(q: QPlan): void {
    const d = this.d;
    const r = this.r;
    const stem = this.texts.stem('tf');
    const statements = [0, 1, 2, 3].map(() => this.texts.statement());
    const truths = [0, 1, 2, 3].map(() => r.chance(0.5));
    // at least one true and one false: all alike would look like layout, or like no key at all
    const flip = r.int(0, 3);
    if (truths.every((x) => x)) truths[flip] = false;
    if (truths.every((x) => !x)) truths[flip] = true;
    const answer = this.keyless ? null : Object.fromEntries(truths.map((v, i) => ['abcd'[i]!, v]));
    const t = this.startQuestion(q, stem, { type: 'true-false', options: 4, optionTexts: statements, answer });
    this.blocks.push(this.stemPara(q, stem));
    const f = this.flag;
    statements.forEach((s, i) => {
      const lab = `${'abcd'[i]})`;
      const text =
        !this.keyless && f && truths[i]
          ? q.extent === 'body'
            ? `${lab} [[${f}:${s}]]`
            : `[[${f}:${lab} ${s}]]`
          : `${lab} ${s}`;
      this.put(text, undefined, t.position);
    });
    if (d.marking === 'key-line') {
      const form = r.int(0, 2);
      const v = truths.map((x, i) =>
        form === 0
          ? `${'abcd'[i]}-${x ? 'Đ' : 'S'}`
          : form === 1
            ? `${'abcd'[i]}) ${x ? 'Đúng' : 'Sai'}`
            : x
              ? 'Đ'
              : 'S',
      );
      this.put(`Đáp án: ${form === 2 ? v.join('') : v.join(', ')}`);
    }
    if (d.explanations) this.put(this.explanation(t, null));
    if (d.metadata) this.metadataLines().forEach((m) => this.put(m));
  }

  essay(q: QPlan): void {
    const stem = this.texts.stem('essay');
    this.startQuestion(q, stem, { type: 'essay', options: 0, optionTexts: [], answer: null });
    const text = q.points === null ? stem : `${stem} ${this.words.points(q.points)}`;
    if (this.d.layout === 'question-table') {
      const rows: Cell[][] = [];
      if (numbered(this.d.label)) rows.push([this.titleCell(q)]);
      rows.push([text]);
      this.blocks.push({ table: rows });
      return;
    }
    if (this.d.layout === 'bank-table')
      return this.bankRow({ q, stem: text, decoy: [], opts: [], marked: [], wrong: null });
    this.blocks.push(this.stemPara(q, text));
    if (this.d.metadata) this.metadataLines().forEach((m) => this.put(m));
  }

  // ---- the document around the questions ----

  titleBlock(): void {
    const t = this.words.title;
    this.put(this.r.pick(t[0]!));
    this.put(this.r.pick(t[1]!));
    if (this.r.chance(0.7)) this.put(this.r.pick(t[2]!));
    if (this.r.chance(0.5)) this.put(this.r.pick(t[3]!));
    // without labels, a blank line tells the title from the first stem
    if (!numbered(this.d.label)) this.blank();
  }

  instructionsBlock(): void {
    this.put(this.words.instructions);
    // without labels, a blank line tells the instructions from the first stem
    if (!numbered(this.d.label)) this.blank();
  }

  heading(i: number, kind: 'choice' | 'tf' | 'essay' | null): void {
    this.flushBank();
    this.put(this.words.part(i, kind));
  }

  betweenQuestions(): void {
    if (this.bank) return;
    if (this.d.blanks !== 'none' || this.d.layout === 'question-table') this.blank();
    if (this.d.blanks === 'lots' && this.r.chance(0.3)) this.blank();
  }

  /** The key after the questions: a list of `N.X` entries, lines, or a table. */
  keyList(): void {
    const d = this.d;
    const w = this.words;
    const entries = this.truth.filter((t) => t.answer !== null && typeof t.answer === 'string');
    const name = (t: QTruth): string => this.keyName(LETTERS.indexOf(t.answer as string));
    const heading = (): void => this.put(this.r.pick(w.keyHeading));
    const form = d.keyForm;
    if (d.marking === 'key-list') {
      if (form === 'inline-heading' || form === 'lines') heading();
      if (form === 'lines') {
        entries.forEach((t) => this.put(d.lang === 'vi' ? `Câu ${t.number}: ${name(t)}` : `${t.number}. ${name(t)}`));
        return;
      }
      const sep = this.r.pick([' ', '  ', '\t']);
      const pad = this.r.chance(0.3);
      const entry = (t: QTruth): string =>
        `${pad ? String(t.number).padStart(2, '0') : t.number}.${this.r.chance(0.5) ? ' ' : ''}${name(t)}`;
      for (let i = 0; i < entries.length; i += 10) {
        const line = entries
          .slice(i, i + 10)
          .map(entry)
          .join(sep);
        this.put(form === 'inline-prefix' && i === 0 ? `${w.answerWord}: ${line}` : line);
      }
      return;
    }
    if (this.r.chance(0.6) || form === 'cells') heading();
    const [h1, h2] = w.keyHeads;
    let rows: string[][];
    if (form === 'vertical') rows = [[h1, h2], ...entries.map((t) => [String(t.number), name(t)])];
    else if (form === 'horizontal') {
      rows = [];
      for (let i = 0; i < entries.length; i += 10) {
        const chunk = entries.slice(i, i + 10);
        rows.push([h1, ...chunk.map((t) => String(t.number))], [h2, ...chunk.map(name)]);
      }
    } else {
      rows = [];
      for (let i = 0; i < entries.length; i += 5)
        rows.push(entries.slice(i, i + 5).map((t) => `${t.number}.${name(t)}`));
    }
    this.put({ table: rows }, rows[0]!.join(' | '));
  }

  /** Each question's foreign texts: what was written around it that is not its stem, and the next stem. */
  finish(): void {
    this.flushBank();
    // two tables in a row are one table in Word: a paragraph always parts them
    for (let i = this.blocks.length - 1; i > 0; i--) {
      const a = this.blocks[i - 1]!;
      const b = this.blocks[i]!;
      if (typeof a === 'object' && 'table' in a && typeof b === 'object' && 'table' in b) this.blocks.splice(i, 0, '');
    }
    this.truth.forEach((t, i) => {
      const near = [...this.noise[i]!, ...this.noise[i + 1]!].filter((n) => n.owner !== t.position).map((n) => n.text);
      const next = this.truth[i + 1];
      if (next) near.push(next.stem.split(' ').slice(0, 6).join(' '));
      t.foreign = [...new Set(near)].filter((x) => !t.stem.includes(x));
    });
  }
}

// ---- the plan ----

function plan(r: Rng, d: Dims): { plans: QPlan[]; kinds: ('choice' | 'tf' | 'essay' | null)[] } {
  const n = d.questions;
  const types: QType[] = [];
  const essay = d.essay && n >= 4;
  for (let i = 0; i < n; i++) {
    const x = r.next();
    types.push(d.tf && x < 0.2 ? 'true-false' : essay && x > 0.85 ? 'essay' : 'single');
  }
  // one of each kind drawn at least, and two choice questions at least for the marking to show
  const singles = (): number[] => types.flatMap((t, i) => (t === 'single' ? [i] : []));
  if (d.tf && !types.includes('true-false')) types[r.pick(singles())] = 'true-false';
  if (essay && !types.includes('essay')) types[r.pick(singles())] = 'essay';
  for (let i = n - 1; singles().length < 2 && i >= 0; i--) {
    if (types[i] !== 'single' && types.filter((t) => t === types[i]).length > 1) types[i] = 'single';
  }
  // sections: by kind (choice, true/false, essay) when several kinds, else 2–3 parts
  let sectionOf: number[];
  let kinds: ('choice' | 'tf' | 'essay' | null)[] = [];
  const order: QType[] = ['single', 'true-false', 'essay'];
  if (d.sections) {
    const present = order.filter((t) => types.includes(t));
    if (present.length > 1) {
      types.sort((a, b) => order.indexOf(a) - order.indexOf(b));
      sectionOf = types.map((t) => present.indexOf(t));
      kinds = present.map((t) => (t === 'single' ? 'choice' : t === 'true-false' ? 'tf' : 'essay'));
    } else {
      const parts = Math.min(n, r.int(2, 3));
      const cuts = r
        .sample(
          [...Array(n - 1).keys()].map((i) => i + 1),
          parts - 1,
        )
        .sort((a, b) => a - b);
      sectionOf = types.map((_, i) => cuts.filter((c) => c <= i).length);
      kinds = Array.from({ length: parts }, () => null);
    }
  } else sectionOf = types.map(() => 0);
  const repeatAt = d.repeat ? r.int(1, n - 1) : -1;
  const policy = d.extent;
  const plans: QPlan[] = [];
  let number = 0;
  types.forEach((type, i) => {
    const section = sectionOf[i]!;
    if (d.restart && i > 0 && section !== sectionOf[i - 1]) number = 0;
    // a repeated number (a typo): not at the first question of a section
    if (!(i === repeatAt && number > 0)) number++;
    const count = type === 'single' ? (d.varyCount && r.chance(0.25) ? r.int(2, 6) : d.optionCount) : 0;
    const multi = type === 'single' && d.multi && count >= 4 && r.chance(0.35);
    plans.push({
      type: multi ? 'multiple' : type,
      count: type === 'true-false' ? 4 : count,
      section,
      number: numbered(d.label) && d.label !== 'none-prefix' ? number : null,
      decoy: type === 'single' && d.decoyList && r.chance(0.3),
      emphasis: type === 'single' && d.emphasis && r.chance(0.4),
      extent: policy === 'mixed' ? r.pick(['whole', 'label', 'body'] as const) : policy === '-' ? 'whole' : policy,
      points: type === 'essay' && r.chance(0.6) ? r.pick([1, 2, 0.5, 1.5]) : null,
    });
  });
  return { plans, kinds };
}

/** A seeded exam: the document's blocks (raw-docx.ts) and the truth of each question. */
export function generateExam(seed: number): Exam {
  const r = new Rng(seed);
  const dims = drawDims(r);
  const w = new Writer(r, dims);
  const { plans, kinds } = plan(r, dims);
  if (dims.title) w.titleBlock();
  if (dims.instructions) w.instructionsBlock();
  plans.forEach((q, i) => {
    if (dims.sections && (i === 0 || q.section !== plans[i - 1]!.section))
      w.heading(q.section, kinds[q.section] ?? null);
    if (q.type === 'true-false') w.trueFalse(q);
    else if (q.type === 'essay') w.essay(q);
    else w.choice(q);
    if (i < plans.length - 1) w.betweenQuestions();
  });
  w.flushBank();
  if (dims.marking === 'key-list' || dims.marking === 'key-table') {
    if (dims.blanks !== 'none') w.betweenQuestions();
    w.keyList();
  }
  w.finish();
  return { seed, dims, blocks: w.blocks, truth: w.truth, keyless: dims.marking === 'none' };
}

/** The dimensions as `name=value` pairs, for tables and failure messages. */
export function dimValues(d: Dims): [string, string][] {
  return Object.entries(d)
    .filter(([k]) => k !== 'questions')
    .map(([k, v]) => [k, String(v)]);
}

// ---- a text dump of the document ----

function cellText(c: Cell): string {
  if (typeof c === 'string') return c.replace(/\n\n/g, ' ¶ ').replace(/\n/g, ' ↵ ');
  const paras = c.paras.map((p) =>
    typeof p === 'string' ? p.replace(/\n/g, ' ↵ ') : `{#${p.auto}${p.level ? `/${p.level}` : ''}} ${p.text}`,
  );
  return (c.shade ? `{shade ${c.shade}} ` : '') + paras.join(' ¶ ');
}

/** The blocks as text: one line a paragraph, `{#list}` for a Word number, tables as rows of `|` cells. */
export function renderText(blocks: RawBlock[]): string {
  const lines: string[] = [];
  for (const b of blocks) {
    if (typeof b === 'string') lines.push(b === '' ? '·' : b.replace(/\n/g, ' ↵ '));
    else if ('auto' in b) {
      const mark = b.mark ? ` mark:${b.mark}` : '';
      lines.push(`{#${b.auto}${b.level ? `/${b.level}` : ''} i${b.instance ?? 0}${mark}} ${b.text}`);
    } else for (const row of b.table) lines.push(`| ${row.map(cellText).join(' | ')} |`);
  }
  return lines.join('\n').replace(/\t/g, ' ⇥ ');
}
