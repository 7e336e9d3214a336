// bench/question-bank/ingest: a 120-question DOCX (the parser bench's exam, parsed by the real
// parser) ingested through the real question bank (in-process, HTTP on a local port, the local
// MongoDB), each run a new import (its own sourceImportJobId), beside a raw-driver baseline doing
// the same row inserts (questions + versions, insertMany) on the same server in the same run.
//   node --import tsx bench/question-bank/ingest.ts
import { Writable } from 'node:stream';
import { MongoClient } from 'mongodb';
import { startService } from '../../services/kit/src/service/index.js';
import { parseDocx } from '../../services/document-import/src/parser/index.js';
import { questionBankService } from '../../services/question-bank/src/service.js';
import { makeExam } from '../docx-parse/make-exam.js';

const RUNS = Number(process.env.BENCH_RUNS ?? '15');
const mongoUri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27037/';
const dbName = `edu_qb_ingest_bench_${process.pid}`;
const HEADERS = {
  'Content-Type': 'application/json',
  'X-User-Id': 't1',
  'X-User-Role': 'TEACHER',
  'X-Organization-Id': 'org-bench',
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeIt(fn: () => Promise<void>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main() {
  const output = parseDocx(await makeExam(120), { documentId: 'docx-bench' });
  const n = output.questions.length;
  const running = await startService(
    { ...questionBankService, dbName },
    {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        MONGODB_URI: mongoUri,
        MONGODB_DB: dbName,
        LOG_LEVEL: 'warn',
      },
      host: '127.0.0.1',
      logDestination: new Writable({ write: (_c, _e, cb) => cb() }),
      handleSignals: false,
    },
  );
  const url = `http://127.0.0.1:${running.port}/v1/questions/import-docx-output`;
  const client = await MongoClient.connect(mongoUri);
  const raw = client.db(`${dbName}_raw`);
  const service: number[] = [];
  const baseline: number[] = [];
  let created = 0;
  try {
    // Rows shaped as the service stores them: read back one ingest and copy its documents.
    const first = await fetch(url, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ ...output, sourceImportJobId: 'warm' }),
    });
    if (first.status !== 201) throw new Error(`bench: ingest answered ${first.status}`);
    const questions = await running.db.conn
      .collection('questions')
      .find({}, { projection: { _outbox: 0 } })
      .toArray();
    const versions = await running.db.conn.collection('question_versions').find({}).toArray();
    for (let run = 0; run < RUNS; run++) {
      // Alternate so machine load falls on both sides alike.
      service.push(
        await timeIt(async () => {
          const body = JSON.stringify({ ...output, sourceImportJobId: `job-${run}` });
          const res = await fetch(url, { method: 'POST', headers: HEADERS, body });
          if (res.status !== 201) throw new Error(`bench: ingest answered ${res.status}`);
          created += ((await res.json()) as { data: { questionIds: string[] } }).data.questionIds.length;
        }),
      );
      baseline.push(
        await timeIt(async () => {
          const tag = `-${run}`;
          await raw
            .collection('questions')
            .insertMany(questions.map((q) => ({ ...q, _id: `${String(q._id)}${tag}` })) as never[]);
          await raw.collection('question_versions').insertMany(
            versions.map((v) => ({
              ...v,
              _id: `${String(v._id)}${tag}`,
              questionId: `${String(v.questionId)}${tag}`,
            })) as never[],
          );
        }),
      );
    }
    const s = median(service);
    const b = median(baseline);
    console.log(`ingest of a ${n}-question DOCX output, ${RUNS} runs each, medians (created ${created} questions)`);
    console.log(`  service  ${s.toFixed(1)} ms/request  ${((n * 1000) / s).toFixed(0)} questions/s`);
    console.log(
      `  raw      ${b.toFixed(1)} ms/request  ${((n * 1000) / b).toFixed(0)} questions/s (insertMany questions + versions)`,
    );
    console.log(`  ratio    service throughput = ${(b / s).toFixed(2)} of the raw baseline`);
  } finally {
    await raw.dropDatabase().catch(() => undefined);
    await client.close();
    await running.db.conn.dropDatabase().catch(() => undefined);
    await running.shutdown('bench finished');
  }
}

await main();
