// Issue 33 (5): the DOCX workers' credential ingests only under a live import job's grant, signed by
// the document-import API with the key of INTERNAL_API_TOKEN, naming the organization, author and job.
import { expect } from 'chai';
import { importGrantKey, signImportGrant, type ImportGrant } from '../../kit/src/core/index.js';
import { headers, startQuestionBank, teacher, type TestQuestionBank, type Who } from './support.js';

const PATH = '/v1/questions/import-docx-output';
const INTERNAL = 'internal-token-for-ingest-grants';
const WORKER = 'worker-token-for-ingest-grants';
const KEY = importGrantKey(INTERNAL);

const body = (jobId: string) => ({
  document_id: `docx-${jobId}`,
  latency_ms: 3,
  questions: [
    {
      id: 'q1',
      type: 'SINGLE_CHOICE',
      content: 'Thủ đô của Việt Nam là?',
      options: ['Hà Nội', 'Huế', 'Đà Nẵng', 'Cần Thơ'].map((content, i) => ({ label: 'ABCD'[i], content })),
      correct_answer: 'A',
    },
  ],
  warnings: [],
  stats: {},
  sourceImportJobId: jobId,
});

describe('POST /v1/questions/import-docx-output with the workers credential: the import grant', () => {
  let svc: TestQuestionBank;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const grantFor = (over: Partial<ImportGrant> = {}) =>
    signImportGrant(KEY, { jobId: 'job-a', organizationId: 'org-a', userId: 't1', exp: nowSeconds() + 600, ...over });
  const ingest = (who: Who, jobId: string, token: string, grant?: string) => {
    const r = svc.request.post(PATH).set(headers(who)).set('X-Internal-Token', token);
    return (grant === undefined ? r : r.set('X-Import-Grant', grant)).send(body(jobId));
  };
  const banked = async (who: Who) => {
    const res = await svc.request.get('/v1/questions').set(headers(who)).set('X-Internal-Token', INTERNAL);
    return res.body.data.meta.total as number;
  };

  before(async () => {
    svc = await startQuestionBank(import.meta.url, { INTERNAL_API_TOKEN: INTERNAL, WORKER_API_TOKEN: WORKER });
  });
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  it("the job's own grant ingests for its organization and author", async () => {
    const res = await ingest(teacher('t1', 'org-a'), 'job-a', WORKER, grantFor());
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(await banked(teacher('t1', 'org-a'))).to.equal(1);
  });

  it('without a grant, under a forged or expired one, or one of another job, school or author: 403, nothing banked', async () => {
    const forged = signImportGrant(importGrantKey(WORKER), {
      jobId: 'job-a',
      organizationId: 'org-b',
      userId: 't9',
      exp: nowSeconds() + 600,
    });
    const cases: Array<[string, Who, string, string | undefined]> = [
      ['missing', teacher('t9', 'org-b'), 'job-a', undefined],
      ['signature', teacher('t9', 'org-b'), 'job-a', forged],
      ['expired', teacher('t1', 'org-a'), 'job-a', grantFor({ exp: nowSeconds() - 1 })],
      ['mismatch', teacher('t9', 'org-b'), 'job-a', grantFor()],
      ['mismatch', teacher('t9', 'org-a'), 'job-a', grantFor()],
      ['mismatch', teacher('t1', 'org-a'), 'job-other', grantFor()],
      ['malformed', teacher('t1', 'org-a'), 'job-a', 'not-a-grant'],
    ];
    for (const [reason, who, jobId, grant] of cases) {
      const res = await ingest(who, jobId, WORKER, grant);
      expect(res.status, `${reason} ${JSON.stringify(who)}`).to.equal(403);
      expect(res.body.error).to.include({ code: 'FORBIDDEN' });
      expect(res.body.error.details, reason).to.deep.equal({ reason });
    }
    expect(await banked(teacher('t9', 'org-b'))).to.equal(0);
    expect(await banked(teacher('t1', 'org-a'))).to.equal(0);
  });

  it('the internal token (the API process approving for a teacher) needs no grant', async () => {
    const res = await ingest(teacher('t2', 'org-c'), 'job-c', INTERNAL);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  });

  it('a grant header past 2048 characters is 400 with either credential, nothing banked', async () => {
    for (const token of [INTERNAL, WORKER]) {
      const res = await ingest(teacher('t3', 'org-d'), 'job-d', token, 'g'.repeat(2049));
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    expect(await banked(teacher('t3', 'org-d'))).to.equal(0);
  });
});
