// One engine in its own process so its peak RSS is its own: prints {ms[], questions, maxRssMb} as JSON.
// The engine is imported only when used: the idle engine shows what node + tsx alone take.
// BENCH_PARSER=/abs/dir benches a private copy of the parser folder (a fix being measured) instead of the tree's.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

const [engine, file, runsArg, warmupsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 20);
const warmups = Number(warmupsArg ?? 10);
const bytes = await readFile(file!);
const parserDir = process.env.BENCH_PARSER;

type ParseDocx = (bytes: Uint8Array) => { questions: unknown[] };

async function loadParser(): Promise<ParseDocx> {
  if (!parserDir) return (await import('../../services/document-import/src/parser/index.js')).parseDocx;
  return ((await import(pathToFileURL(`${parserDir}/index.ts`).href)) as { parseDocx: ParseDocx }).parseDocx;
}

async function loadEngine(): Promise<() => Promise<number>> {
  if (engine === 'native') {
    const parseDocx = await loadParser();
    return async () => parseDocx(new Uint8Array(bytes)).questions.length;
  }
  if (engine === 'mammoth') {
    const mammoth = (await import('mammoth')).default;
    return async () => (await mammoth.convertToHtml({ buffer: bytes })).value.length * 0;
  }
  return async () => 0;
}

const once = await loadEngine();
for (let i = 0; i < warmups; i++) await once();
const ms: number[] = [];
let questions = 0;
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  questions = await once();
  ms.push(performance.now() - t);
}
process.stdout.write(JSON.stringify({ ms, questions, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
