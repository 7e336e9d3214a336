import type { GroupDraft, GroupKind, State } from './drafts.js';
import type { Line } from './lines.js';
import { GROUP_RE, isLevelHeading, KEY_HEADING_RE, PART_RE, QUESTION_RE, partHint } from './patterns.js';

// Nesting: a PHẦN holds roman sections, a section holds passages. Opening a heading closes every open group at its
// level or deeper, so a group runs until the next heading of the same or an outer level.
const LEVEL: Record<GroupKind, number> = { PART: 1, SECTION: 2, PASSAGE: 3 };

export const SECTION_RE = /^\s*(?:I{1,3}|IV|VI{0,3}|IX|X)\s*[.:]\s+(\S.*)$/u;
export const PASSAGE_RE =
  /^\s*(?:Đọc|Dựa\s+vào|Read)\b.{0,160}?(?:(?:trả\s+lời|làm)\s+(?:các\s+|những\s+)?câu\s+hỏi|answer\s+(?:the\s+)?questions|(?:each\s+of\s+)?the\s+(?:following\s+)?questions)/iu;

export function openGroup(st: State, line: Line, kind: GroupKind, range?: { from: number; to: number }): GroupDraft {
  st.open = st.open.filter((g) => LEVEL[g.kind] < LEVEL[kind]);
  const group: GroupDraft = {
    group_id: `g${st.groups.length + 1}`,
    kind,
    parent_group_id: st.open.at(-1)?.group_id ?? null,
    title: line.text.trim(),
    from: range?.from ?? null,
    to: range?.to ?? null,
    part: st.part,
    content: [],
  };
  st.groups.push(group);
  st.open.push(group);
  st.group = group;
  st.cur = null;
  return group;
}

/** A roman-numbered heading is a section only when it reads like one: capitals or a part keyword. */
export function sectionStart(st: State, line: Line): boolean {
  const m = SECTION_RE.exec(line.text);
  if (!m) return false;
  const rest = m[1]!;
  const hint = partHint(rest);
  const capitals = /(?:\p{Lu}.*){3}/u.test(rest) && rest === rest.toUpperCase();
  if (!hint && !capitals) return false;
  if (hint) st.partHint = hint;
  openGroup(st, line, 'SECTION');
  return true;
}

/** A passage heading without a question range groups the questions that follow until the next heading. */
export function passageStart(st: State, line: Line): boolean {
  if (!PASSAGE_RE.test(line.text)) return false;
  // Inside a stem with no options yet, "Đọc …" is the question's own instruction.
  if (st.cur && st.cur.mode === 'stem' && st.cur.options.length === 0) return false;
  openGroup(st, line, 'PASSAGE');
  return true;
}

export function groupOf(st: State, number: number): string | null {
  let top = st.open.at(-1);
  while (top && top.from !== null && (number < top.from || number > top.to!)) {
    st.open.pop();
    top = st.open.at(-1);
  }
  return top?.group_id ?? null;
}

/** No loose text is pending any more (a question or a heading took it). */
export function clearLoose(st: State): void {
  st.loose = [];
  st.looseGap = 0;
  st.looseRun = 0;
}

/** The current question ends: what follows is loose text until a question starts. */
export function endQuestion(st: State): void {
  st.cur = null;
  clearLoose(st);
}

/** Key, part, level and section headings; each ends the question before it. */
export function heading(st: State, line: Line): boolean {
  if (KEY_HEADING_RE.test(line.text)) {
    st.keyMode = true;
    st.keyQuestion = null;
    endQuestion(st);
    st.open = [];
    return true;
  }
  const part = PART_RE.exec(line.text);
  if (part) {
    st.part = part[1]!.toUpperCase();
    st.vietnamese = true;
    st.partHint = partHint(line.text);
    if (st.keyMode) st.cur = null;
    else openGroup(st, line, 'PART');
    clearLoose(st);
    return true;
  }
  if (st.keyMode) return false;
  if (isLevelHeading(line.text) && !line.bullet && !QUESTION_RE.test(line.text)) {
    st.conventions.add('level-headings');
    endQuestion(st);
    return true;
  }
  if (letteredSection(st, line) || sectionStart(st, line)) {
    clearLoose(st);
    return true;
  }
  return false;
}

/** `A. PHẦN TRẮC NGHIỆM`, `B. TỰ LUẬN`: a lettered heading in capitals naming a part, not an option. */
function letteredSection(st: State, line: Line): boolean {
  const m = /^\s*[A-G]\s*[.)]\s+(\S.*)$/u.exec(line.text);
  const rest = m?.[1];
  if (!rest || rest !== rest.toUpperCase() || !/\p{Lu}.*\p{Lu}/u.test(rest)) return false;
  const hint = partHint(rest);
  if (!hint && !/\b(?:PHẦN|PART|SECTION)\b/u.test(rest)) return false;
  if (hint) st.partHint = hint;
  openGroup(st, line, 'SECTION');
  return true;
}

export function groupStart(st: State, line: Line): boolean {
  const m = GROUP_RE.exec(line.text);
  if (QUESTION_RE.test(line.text)) return false;
  if (!m) return passageStart(st, line);
  openGroup(st, line, 'PASSAGE', { from: Number(m[1]), to: Number(m[2]) });
  return true;
}
