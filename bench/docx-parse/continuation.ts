// Issue 20's shapes at n and 2n lines, each parsed in its own child process, times side by side: a ratio near 2 is
// linear, near 4 quadratic. One question whose stem runs on for n plain lines (no label: 20,000 took 15 s at
// a33b25b), n lines with no label at all before the options, and one paragraph of n leading blanks before its text
// (a pattern that restarted at every blank).
import { makeDocx, type Block } from '../../services/document-import/test/parser/support/build-docx.js';

export const CONTINUATION_LINES = Number(process.env.BENCH_CONTINUATION_LINES ?? 20_000);

const filler = (n: number): Block[] => Array.from({ length: n }, (_, i) => `dòng ${i + 1} của đề bài, nội dung ngắn.`);
const OPTIONS: Block[] = ['A. một', 'B. hai', 'C. ba', 'D. bốn'];

export const CONTINUATION_SHAPES: Record<string, (n: number) => Promise<Uint8Array>> = {
  'stem continuation lines': (n) => makeDocx(['Câu 1. Cho hàm số sau.', ...filler(n), ...OPTIONS]),
  'lines without a label': (n) => makeDocx([...filler(n), ...OPTIONS]),
  'leading blanks (×10 per line)': (n) =>
    makeDocx(['Câu 1. Cho hàm số sau.', `${' '.repeat(10 * n)}x`, ...OPTIONS, 'Đáp án: B']),
};
