// The teachers' conventions, as patterns. Vietnamese words are matched case-insensitively with /u.

/** A worded label: `Câu 12.`, `Câu369:`, `Câu hỏi số 5`, `Bài tập 2`, `Question 5`, `Question No. 5`, `Bài 2`, `Item ID: 30324`, `Q.1.21)`, `//QZ1.11)`. The
 * number is the last of a dotted chain. */
export const QUESTION_RE =
  /^\s*(?:\/\/\s*)?(?:Câu(?:\s*hỏi)?|Question|Bài(?:\s*tập)?|Item(?:\s*ID)?|Q[A-Z]{0,2})\s*(?:(?:No\.?|số)\s*)?(?:[.#:]\s*)?(?:\d{1,4}\.)*0*(\d{1,6})(?![\d,])\s*(?:[.:)]|[–—-](?=\s|$))?/iu;
/** `[12]` */
export const BRACKET_QUESTION_RE = /^\s*\[\s*0*(\d{1,4})\s*\]\s*[.:)]?/u;
/** A bare number: `12.`, `12)`, `17:`, `3..`, `12` alone, or glued to the stem's first capital (`12Which`). */
export const BARE_QUESTION_RE = /^\s*0*(\d{1,3})(?:\s*[.:)]+(?![\d])|(?=\s*$)|(?=\p{Lu})|(?=(?:\t|\s{2,})\p{L}))\s*/u;
/** A worded label later in a paragraph, where a PDF-to-Word conversion merged two paragraphs (capitalised, so
 * "từ câu 1 đến câu 2." in an instruction is not one). No lookbehind: it would rescan blanks at every position. */
export const MID_QUESTION_RE = /\S[^\S\n]+((?:Câu|CÂU|Question|QUESTION)\s?0*(\d{1,3})\s?[.:])/gu;
export const AUTO_QUESTION_LABEL_RE = /^0*(\d{1,3})[.):]?$/;
export const AUTO_OPTION_LABEL_RE = /^\(?([A-Fa-f])[.):]?$/;
export const PART_RE = /^\s*PHẦN\s+(I{1,3}|IV|VI?|[1-6])(?=[\s.:]|$)/iu;
/** An option label at the start of a line: `A.`, `A)`, `A:`, `(A)`, `A -`, `A` then a tab or several spaces. */
export const OPTION_START_RE = /^\s*\(?([A-G])(?:\s*[.):](?![A-Z]\.)|(?=\t|\s{2,})|\s*[-–]{1,3}(?=\s*\S))/;
export const OPTION_ANY_RE = /(^|\s)\*?\(?([A-G])\s*[.)](?=\s|$|\$|\[\[)/g;
/** Stray characters glued before the first option (`xyzA. 3`, a PDF or OCR artefact). */
export const GLUED_OPTION_A_RE = /^\s*\S{1,40}?(?<=[a-zà-ỹ0-9\])])A\.\s/u;
export const SUB_RE = /^\s*\(?([a-g])\s*[.)]\s*/;
/** The words that introduce an answer, in the languages teachers write: `Đáp án`, `Correct Answer`, `Richtige
 * Antwort`, `Risposta corretta`, `Réponse`, `Respuesta`, `Lösung`, `Trả lời`, `Chọn`. */
const ANSWER_WORDS =
  /(?:Đáp\s*án(?:\s*đúng)?|ĐA|Đ\s*[/.]\s*A|(?:The\s+)?(?:Correct|Right)(?:\s+(?:answers?|options?|choices?))?(?:\s+(?:is|are))?|(?:The\s+)?Answers?(?:\s+(?:is|are))?|Ans|Key|Trả\s*lời|Chọn(?:\s*đáp\s*án)?|(?:Die\s+)?(?:richtige|korrekte)\s+Antwort(?:\s+ist)?|Antwort|Lösung|Risposta(?:\s+(?:corretta|esatta|giusta))?(?:\s+è)?|(?:La\s+)?(?:bonne\s+)?R[ée]ponse(?:\s+(?:correcte|juste))?(?:\s+est)?|Respuesta(?:\s+correcta)?(?:\s+es)?)/
    .source;
const ARROWS = /(?:(?:[→⇒➔➜=>✅✓✔☑-]\uFE0F?)+\s*)/.source;
/** A key line: `Đáp án: C`, `Chọn C`, `ANSWER: X`, `Correct Answer : A`, `→ Answer: B`, `Key: B`, `Trả lời: 36`,
 * `Richtige Antwort: A`, `Risposta: B`. */
export const ANSWER_RE = new RegExp(`^\\s*${ARROWS}?${ANSWER_WORDS}(?!\\p{L})\\s*(?:([:.-])\\s*)?(\\S.*)$`, 'iu');
/** A key field left empty (`Answer:`, `Đáp án: ____`): the question is laid out for a key that was not written. A
 * colon after blanks, then blanks, dots and rules (a `.` is one of them): no blank run is shared by two quantifiers. */
export const ANSWER_PLACEHOLDER_RE = new RegExp(`^\\s*${ARROWS}?${ANSWER_WORDS}(?:\\s*:)?[\\s_.…]*$`, 'iu');
/** A bare arrow and its answer on a line of their own: `→ B`, `=> Sai`, `→ Đồng Khởi`. */
export const ARROW_KEY_RE = /^\s*(?:→|⇒|➔|➜|=>|->)\s*(\S.{0,79})$/u;
/** The arrow and key of a key typed at the end of a stem (trailingArrowKey reads what follows). */
const TRAILING_ARROW_RE = /\s(?:→|⇒|➔|➜|=>)\s*(Đúng|Sai|True|False|Richtig|Falsch|Vero|Falso|[A-G])(?![\p{L}\d])/gu;
/** The line terminators, which `.` does not match. */
const LINE_BREAKS = '\n\r\u2028\u2029';

export interface TrailingKey {
  /** where the blank before the arrow is */
  index: number;
  /** the key after the arrow: a truth value or a letter */
  key: string;
  /** the text after the key and its `.` or `;` (the solution), to the end of the line */
  rest: string;
}

/** A key typed at the end of a stem or statement after an arrow: `… năm 1962. → Sai (Đáp án đúng: 1963.)`. By hand:
 * as one pattern, the blanks around the `.` after the key were shared by three quantifiers, and each arrow before a
 * line break rescanned the rest of the text. */
export function trailingArrowKey(text: string): TrailingKey | null {
  const lastBreak = Math.max(...[...LINE_BREAKS].map((c) => text.lastIndexOf(c)));
  TRAILING_ARROW_RE.lastIndex = 0;
  for (let m = TRAILING_ARROW_RE.exec(text); m; m = TRAILING_ARROW_RE.exec(text)) {
    const rest = afterKey(text.slice(m.index + m[0].length));
    // the rest runs to the end of the text, on one line
    if (text.length - rest.length > lastBreak) return { index: m.index, key: m[1]!, rest };
    TRAILING_ARROW_RE.lastIndex = m.index + 1;
  }
  return null;
}

/** The text after a trailing key, past blanks, a `.` or `;`, and blanks. */
function afterKey(tail: string): string {
  const rest = tail.trimStart();
  return rest.startsWith('.') || rest.startsWith(';') ? rest.slice(1).trimStart() : rest;
}

/** A question introduced by its word without a number (`Question: …`, `Câu hỏi: …`): numbered in sequence. */
export const UNNUMBERED_QUESTION_RE = /^\s*(?:Question|Câu\s*hỏi|Frage|Domanda|Pregunta)\s*:\s*(?=\S)/iu;
/** An item's metadata (`Difficulty: Medium`, `Category: …`, `Độ khó: …`): neither stem nor solution. */
export const METADATA_RE =
  /^\s*(?:(?:\p{L}{1,12}\s+)?Type|Difficulty(?:\s+level)?|Category|Topic|Tags?|Level|Subject|Chapter|Bloom(?:'s)?(?:\s+level)?|Marks?|Points?|Score|Time|Độ\s+khó|Mức\s+độ|Chủ\s+đề|Chương|Schwierigkeit|Kategorie|Difficoltà|Categoria)\s*:\s*\S.{0,80}$/iu;
export const SOLUTION_RE =
  /^\s*(?:(?:Lời\s+giải|Hướng\s+dẫn\s+giải|Hướng\s+dẫn|Giải\s+thích|Explanation|Solution|Rationale|Erklärung|Begründung|Erläuterung|Spiegazione|Soluzione|Motivazione|Explication|Explicación)(?:\s+chi\s+tiết)?(?=\s|[:.]|$)|Giải\s*[:.])/iu;
/** A solution heading that carries the answer: `Lời giải: C`, `Giải thích: S-Đ-Đ-Đ`, `Soluzione: B` (a solution
 * heading over a sentence is only the solution). */
export const SOLUTION_ANSWER_RE =
  /^\s*(?:Lời\s+giải|Hướng\s+dẫn\s+giải|Hướng\s+dẫn|Giải\s+thích|Giải|Soluzione)(?:\s+chi\s+tiết)?\s*[:.]\s*(\S.*)$/iu;
export const KEY_HEADING_RE =
  /^\s*(?:BẢNG\s+)?(?:ĐÁP\s+ÁN|ANSWER\s+KEYS?|ANSWERS|KEYS?|Antworten|Antworttext|Lösungen|Risposte|Soluzioni|R[ée]ponses|Corrig[ée]s?|Respuestas|Soluciones)(?:\s+(?:THAM\s+KHẢO|TRẮC\s+NGHIỆM|CHI\s+TIẾT))?\s*(?:[:.]\s*)?$/iu;
/** Level and topic headings that end the previous question: `// Nhận biết:`, `Chương 2 …`, `Section IV – …`,
 * `Mức độ 2`, `Thông hiểu` (a code comment such as `//Let P be a union` is not one). Tested on the trimmed line
 * (isLevelHeading): no blank run is left for two quantifiers to share. */
const LEVEL_RE =
  /^(?:\/\/[^:]{1,60}:|(?:[→>]\s*)?(?:Chương|Chapter|Unit|Section|Topic|Chủ\s+đề|Part|Teil|Parte|Sezione|Abschnitt|Kapitel|Capitolo|Partie)\s+[\dIVXLC]+(?:\.\d+)*(?![\p{L}\d]).{0,70}|(?:Mức|Cấp)\s+độ\s*(?:\d|[:.(]|nhận|thông|vận|$).{0,60}|(?:Nhận\s+biết|Thông\s+hiểu|Vận\s+dụng(?:\s+cao)?)\s*[:.]?)$/iu;
/** A line that only separates: rules of dashes, `--- HẾT ---`, `End-of-Item`, an `Options` caption. Tested on the
 * trimmed line (isSeparator): a leading `\s*` beside `[-_=*.\s]*` was quadratic in a line's leading blanks. */
const SEPARATOR_RE =
  /^(?:(?:[-_=~*•.]{4,}|End[\s-]*of[\s-]*Item|Options?|Choices?|Các\s+phương\s+án|Select\s+one(?:\s+or\s+more)?|Chọn\s+một)(?:\s*:)?|[-_=*.\s]*(?:HẾT|THE\s+END)[-_=*.\s]*:?)$/iu;

export function isSeparator(text: string): boolean {
  return SEPARATOR_RE.test(text.trim());
}

export function isLevelHeading(text: string): boolean {
  return LEVEL_RE.test(text.trim());
}

export const GROUP_RE =
  /^\s*(?:Đọc|Dựa|Dùng|Sử\s+dụng|Cho\s+đoạn|Read|Use)\b.*?(?:câu(?:\s+hỏi)?|questions?)\s*(?:(?:từ|from)\s*)?(\d+)\s*(?:đến|tới|-|–|to|and|và)\s*(?:câu\s*)?(\d+)/iu;
export const POINTS_RE = /\(\s*(\d+(?:[.,]\d+)?)\s*điểm\s*\)/iu;
export const TF_SUFFIX_RE = /\(\s?(Đúng|Sai)\s?\)\s?\.?\s*$/iu;
/** An option marked as the answer: a leading `*`, a trailing check mark. */
export const MARK_PREFIX_RE = /^\s*\*\s*(?=\S)/u;
export const MARK_SUFFIX_RE = /[✅✓✔☑]\uFE0F?\s*$/u;

/** A ballot box or radio mark before an option (`☐ text`, `☑ text`, `○ text`): the option has no letter; a filled
 * or ticked box marks the answer. */
export const BOX_OPTION_RE = /^\s*([☐☑☒□■▢○●◯◉❍❏❑])\uFE0F?\s*(?=\S)/u;
export const CHECKED_BOXES = '☑☒■●◉';
const LONE_LETTER_RE = /^\(?([A-G])\)?(?:\s*\.)?$/u;

/** A letter alone on its line (`B`, `(C)`, `D .`) after a question's options: its key. Tested on the trimmed line. */
export function loneLetter(text: string): string | undefined {
  return LONE_LETTER_RE.exec(text.trim())?.[1];
}

export type PartHint = 'CHOICE' | 'TRUE_FALSE' | 'SHORT' | 'ESSAY' | null;

export function partHint(text: string): PartHint {
  const t = text.toLowerCase();
  if (/đúng\s*(?:[-/]\s*)?sai/u.test(t)) return 'TRUE_FALSE';
  if (/trả\s+lời\s+ngắn/u.test(t)) return 'SHORT';
  if (/tự\s+luận/u.test(t)) return 'ESSAY';
  if (/trắc\s+nghiệm|lựa\s+chọn/u.test(t)) return 'CHOICE';
  return null;
}
