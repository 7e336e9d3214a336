// Pure readers of one line of review text (the review route's `sourceText`, up to 1,000,000
// characters on the API's event loop). Each walks the line once with an index, so its time is
// linear in the line whatever the line holds: the regular expressions they replace had adjacent
// `\s*` quantifiers (`\s*(\*?)\s*`, `\s*[:.]?\s*(.+)$`) and an unanchored `\s+(?=…)` split that took
// quadratic (and worse) time on runs of whitespace: 40,000 spaces stalled the service for seconds.

const SPACE = /\s/;

/** The same characters as the regular-expression class `\s` (and `String.prototype.trim`). */
export const isSpace = (c: string | undefined): boolean => c !== undefined && SPACE.test(c);

/** The index of the first non-space character at or after `i`. */
export function skipSpaces(s: string, i: number): number {
  let j = i;
  while (j < s.length && isSpace(s[j])) j += 1;
  return j;
}

/** The end of the first of `words` (lower case) found at `i`, case-insensitively; -1 when none is. */
export function keywordAt(s: string, i: number, words: readonly string[]): number {
  for (const w of words) {
    if (s.slice(i, i + w.length).toLowerCase() === w) return i + w.length;
  }
  return -1;
}

function digitsEnd(s: string, i: number): number {
  let j = i;
  while (j < s.length && s[j]! >= '0' && s[j]! <= '9') j += 1;
  return j;
}

const QUESTION_WORDS = ['câu', 'cau', 'question'];
const ANSWER_WORDS = ['đáp án', 'dap an', 'answer'];
const CHOOSE_WORDS = ['chọn', 'chon'];
const SOLUTION_WORDS = ['lời giải', 'loi giai', 'hướng dẫn giải', 'huong dan giai', 'solution'];
const OPTION_LETTERS = 'ABCDabcd';

/** What follows optional spaces and one optional `marks` character (then spaces) from `i`. */
function afterMark(s: string, i: number, marks: string): number {
  const j = skipSpaces(s, i);
  return j < s.length && marks.includes(s[j]!) ? skipSpaces(s, j + 1) : j;
}

/** `Câu 12.` / `Question 3:` (a keyword, up to four digits, `.`, `:` or `)` optional) or `12.` / `12)`. */
export function readQuestionHead(line: string): { number: number; rest: string } | null {
  const i = skipSpaces(line, 0);
  const word = keywordAt(line, i, QUESTION_WORDS);
  if (word >= 0) {
    const from = skipSpaces(line, word);
    const to = Math.min(digitsEnd(line, from), from + 4);
    if (to === from) return null;
    return { number: Number(line.slice(from, to)), rest: line.slice(afterMark(line, to, '.:)')) };
  }
  const to = digitsEnd(line, i);
  if (to === i || to - i > 4) return null;
  const dot = skipSpaces(line, to);
  if (line[dot] !== '.' && line[dot] !== ')') return null;
  return { number: Number(line.slice(i, to)), rest: line.slice(skipSpaces(line, dot + 1)) };
}

export interface OptionHead {
  label: string;
  content: string;
  /** A `*` before or after the label. */
  marked: boolean;
}

/** `A. text`, `b) text`, `*C. text`, `D.* text`; null for anything else. */
export function readOption(part: string): OptionHead | null {
  let i = skipSpaces(part, 0);
  const before = part[i] === '*';
  if (before) i = skipSpaces(part, i + 1);
  const letter = part[i];
  if (letter === undefined || !OPTION_LETTERS.includes(letter)) return null;
  i = skipSpaces(part, i + 1);
  if (part[i] !== '.' && part[i] !== ')') return null;
  i = skipSpaces(part, i + 1);
  const after = part[i] === '*';
  if (after) i = skipSpaces(part, i + 1);
  return { label: letter.toUpperCase(), content: part.slice(i).trim(), marked: before || after };
}

// `*?[A-D][.)]` and a space: where an inline option starts.
function optionStartsAt(s: string, i: number): boolean {
  const j = s[i] === '*' ? i + 1 : i;
  const letter = s[j];
  return letter !== undefined && 'ABCD'.includes(letter) && (s[j + 1] === '.' || s[j + 1] === ')') && isSpace(s[j + 2]);
}

/** Splits `stem A. 1 B. 2` at each run of spaces followed by an option label (the run is dropped). */
export function splitInlineOptions(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (!isSpace(text[i])) {
      i += 1;
      continue;
    }
    const end = skipSpaces(text, i);
    if (optionStartsAt(text, end)) {
      parts.push(text.slice(start, i));
      start = end;
    }
    i = end;
  }
  parts.push(text.slice(start));
  return parts;
}

/** `Đáp án: B` / `Answer. 2,5`: the answer, trimmed; a bare `Đáp án:` answers its `:`, as before. */
export function readAnswerLine(line: string): string | null {
  const word = keywordAt(line, skipSpaces(line, 0), ANSWER_WORDS);
  if (word < 0) return null;
  const value = line.slice(afterMark(line, word, ':.')).trim();
  if (value) return value;
  return line.slice(word).trim() || null;
}

/** A lone `Chọn B` (a `.` after the letter allowed): the letter. */
export function readChooseLine(line: string): string | null {
  const word = keywordAt(line, skipSpaces(line, 0), CHOOSE_WORDS);
  if (word < 0) return null;
  const at = skipSpaces(line, word);
  const letter = line[at];
  if (at === word || letter === undefined || !OPTION_LETTERS.includes(letter)) return null;
  let end = skipSpaces(line, at + 1);
  if (line[end] === '.') end += 1;
  return end === line.length ? letter : null;
}

/** `Lời giải: …` / `Solution …`: what follows the heading (maybe empty); null for another line. */
export function readSolutionLine(line: string): string | null {
  const word = keywordAt(line, skipSpaces(line, 0), SOLUTION_WORDS);
  return word < 0 ? null : line.slice(afterMark(line, word, ':.'));
}
