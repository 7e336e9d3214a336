import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DocxError, parseDocx } from './parser/index.js';

// The contract's upload limit, applied to files given on the command line too.
export const MAX_DOCX_BYTES = 50 * 1024 * 1024;

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

interface Args {
  out: string | null;
  files: string[];
}

export function parseArgs(argv: string[]): Args | string {
  const args: Args = { out: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--out') {
      const dir = argv[++i];
      if (!dir) return '--out needs a directory';
      args.out = dir;
    } else if (a.startsWith('--')) return `unknown option ${a}`;
    else args.files.push(a);
  }
  return args.files.length > 0 ? args : 'no input file';
}

async function parseOne(file: string): Promise<string> {
  if (!file.toLowerCase().endsWith('.docx')) throw new DocxError('DOCX_UNSUPPORTED', 'the file name must end in .docx');
  const size = (await stat(file)).size;
  if (size > MAX_DOCX_BYTES) throw new DocxError('DOCX_TOO_LARGE', `the file has ${size} bytes (limit 50 MB)`);
  const bytes = new Uint8Array(await readFile(file));
  return JSON.stringify(parseDocx(bytes), null, 2) + '\n';
}

/** Runs `docx-parse [--out DIR] FILE...`; returns the process exit code. */
export async function runDocxParse(argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.stderr(`docx-parse: ${args}\nusage: docx-parse [--out DIR] FILE.docx...\n`);
    return 2;
  }
  if (args.out) await mkdir(args.out, { recursive: true });
  let failed = 0;
  for (const file of args.files) {
    try {
      const json = await parseOne(file);
      if (args.out) await writeFile(join(args.out, `${basename(file).replace(/\.docx$/i, '')}.json`), json);
      else io.stdout(json);
    } catch (err) {
      failed++;
      const code = err instanceof DocxError ? err.code : 'DOCX_READ_FAILED';
      io.stderr(`${file}: ${code}: ${(err as Error).message}\n`);
    }
  }
  return failed > 0 ? 1 : 0;
}
