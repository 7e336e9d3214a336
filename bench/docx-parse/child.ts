// One engine in its own process so its peak RSS is its own: prints {ms[], questions, maxRssMb} as JSON.
import { readFile } from 'node:fs/promises';
import mammoth from 'mammoth';
import { parseDocx } from '../../services/document-import/src/parser/index.js';

const [engine, file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 20);
const bytes = await readFile(file!);

async function once(): Promise<number> {
  if (engine === 'native') return parseDocx(new Uint8Array(bytes)).questions.length;
  await mammoth.convertToHtml({ buffer: bytes });
  return 0;
}

for (let i = 0; i < 3; i++) await once();
const ms: number[] = [];
let questions = 0;
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  questions = await once();
  ms.push(performance.now() - t);
}
process.stdout.write(JSON.stringify({ ms, questions, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
