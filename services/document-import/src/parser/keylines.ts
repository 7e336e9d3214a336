// Key lines inside a question (`Đáp án: C`, `Lời giải: S-Đ-Đ-Đ`) and the lines of a key or solutions section after
// the questions (`01. B 02. C`, `Câu 3. Chọn B`).
import { answerValue } from './answers.js';
import type { QDraft, State } from './drafts.js';
import { inlineKeyEntries, lowerKeySectionEntries, type KeyEntry } from './keys.js';
import type { Line } from './lines.js';
import { ANSWER_RE, QUESTION_RE, SOLUTION_ANSWER_RE } from './patterns.js';
import { pushAll } from './types.js';

export interface KeyLine {
  value: string;
  /** the line is a solution heading that carries the answer (`Lời giải: C`) */
  solution: boolean;
}

function hasChoices(q: QDraft): boolean {
  return q.options.length > 0 || q.subs.length > 0;
}

/** An answer line's value (`Chọn C`, `Answer: B`), or null. */
function answerLine(text: string, choices: boolean): string | null {
  const m = ANSWER_RE.exec(text);
  return m ? answerValue(m[2]!, choices, m[1] === ':') : null;
}

/** A key line's value, or null: a solution heading counts only with a letter, truth values or a number after it. */
export function keyLineValue(q: QDraft, text: string): KeyLine | null {
  const sol = SOLUTION_ANSWER_RE.exec(text);
  if (sol) {
    const v = answerValue(sol[1]!, hasChoices(q), false);
    return v === null ? null : { value: v, solution: true };
  }
  const v = answerLine(text, hasChoices(q));
  return v === null ? null : { value: v, solution: false };
}

/** The entries of a key section's line (`Câu 1: B 2. C`, `1. b ⇥ 2.c`), upper case anywhere in it or lower case
 * alone on it. */
function sectionEntries(st: State, text: string): KeyEntry[] {
  const unlabelled = text.replace(/(?:Câu|Question)\s*/giu, '');
  const upper = inlineKeyEntries(unlabelled, st.part);
  return upper.length > 0 ? upper : lowerKeySectionEntries(unlabelled, st.part, st.keys.at(-1)?.number);
}

/** A line of the key section: a list of entries (`1.B 2.C`, `Câu 1: B`), or the answer of the question the last
 * `Câu N` named (`Câu 3. Chọn B`, then `Đáp án: B` on a later line). */
export function keyModeLine(st: State, line: Line): void {
  // `1. The correct answer is B. Because …`, `2) Richtige Antwort: C`: a numbered sentence that states an answer
  const numbered = /^\s*0*(\d{1,3})\s*[.):]\s*(?=\S)/.exec(line.text);
  const stated = numbered ? answerLine(line.text.slice(numbered[0].length), true) : null;
  if (numbered && stated !== null) {
    const text = line.text.slice(numbered[0].length).trim();
    st.keys.push({ part: st.part, number: Number(numbered[1]), raw: stated, list: true, text });
    return;
  }
  const label = QUESTION_RE.exec(line.text);
  if (label) st.keyQuestion = Number(label[1]);
  const entries = sectionEntries(st, line.text);
  if (entries.length > 0) {
    pushAll(st.keys, entries);
    return;
  }
  const v = answerLine(label ? line.text.slice(label[0].length) : line.text, true);
  if (v !== null && st.keyQuestion !== null) st.keys.push({ part: st.part, number: st.keyQuestion, raw: v });
}
