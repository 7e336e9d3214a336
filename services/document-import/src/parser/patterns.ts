// The teachers' conventions, as patterns. Vietnamese words are matched case-insensitively with /u.
export const QUESTION_RE = /^\s*(?:Câu|Question|Bài)\s*0*(\d{1,3})(?!\d)\s*[.:)]?/iu;
export const AUTO_QUESTION_LABEL_RE = /^0*(\d{1,3})[.)]$/;
export const PART_RE = /^\s*PHẦN\s+(I{1,3}|IV|VI?|[1-6])(?=[\s.:]|$)/iu;
export const OPTION_START_RE = /^\s*([A-F])\s*[.)](?=\s|$|\$|\[\[)/;
export const OPTION_ANY_RE = /(^|\s)([A-F])\s*[.)](?=\s|$|\$|\[\[)/g;
export const SUB_RE = /^\s*([a-f])\s*\)\s*/;
export const ANSWER_RE = /^\s*(?:Đáp\s*án|Answer|Key)(?:\s*đúng)?\s*[:.]\s*(.+?)\s*$/iu;
export const CHOOSE_RE = /^\s*Chọn\s*(?:đáp\s*án\s*)?([A-F](?:\s*(?:,|;|và)\s*[A-F])*)\s*\.?\s*$/iu;
export const SOLUTION_RE =
  /^\s*(?:(?:Lời\s+giải|Hướng\s+dẫn\s+giải|Hướng\s+dẫn)(?:\s+chi\s+tiết)?(?=\s|[:.]|$)|Giải\s*[:.])/iu;
export const KEY_HEADING_RE = /^\s*(?:BẢNG\s+)?ĐÁP\s+ÁN(?:\s+(?:THAM\s+KHẢO|TRẮC\s+NGHIỆM|CHI\s+TIẾT))?\s*[:.]?\s*$/iu;
export const GROUP_RE =
  /^\s*(?:Đọc|Dựa|Dùng|Sử\s+dụng|Cho\s+đoạn|Read|Use)\b.*?(?:câu(?:\s+hỏi)?|questions?)\s*(?:(?:từ|from)\s*)?(\d+)\s*(?:đến|tới|-|–|to|and|và)\s*(?:câu\s*)?(\d+)/iu;
export const POINTS_RE = /\(\s*(\d+(?:[.,]\d+)?)\s*điểm\s*\)/iu;
export const TF_SUFFIX_RE = /\s*\(\s*(Đúng|Sai)\s*\)\s*\.?\s*$/iu;

export type PartHint = 'CHOICE' | 'TRUE_FALSE' | 'SHORT' | 'ESSAY' | null;

export function partHint(text: string): PartHint {
  const t = text.toLowerCase();
  if (/đúng\s*[-/]?\s*sai/u.test(t)) return 'TRUE_FALSE';
  if (/trả\s+lời\s+ngắn/u.test(t)) return 'SHORT';
  if (/tự\s+luận/u.test(t)) return 'ESSAY';
  if (/trắc\s+nghiệm|lựa\s+chọn/u.test(t)) return 'CHOICE';
  return null;
}
