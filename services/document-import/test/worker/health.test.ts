// The worker's probe answers as pure functions of its state and an injected clock.
import { expect } from 'chai';
import { liveness, readiness, stuckAfterMs, WorkerHealth } from '../../src/worker/health.js';
import { reportConsumerState } from '../../src/worker/worker.js';

const BOUND = 80_000;

describe('docx worker probes (pure)', () => {
  describe('WorkerHealth', () => {
    let now = 1_000_000;
    const health = () => new WorkerHealth(() => now, BOUND);

    it('is alive but not ready while starting, ready once consuming', () => {
      const h = health();
      expect(h.liveness().ok).to.equal(true);
      expect(h.readiness()).to.deep.equal({ ok: false, message: 'starting' });
      h.consuming();
      expect(h.readiness()).to.deep.equal({ ok: true, message: 'consuming' });
    });

    it('fails liveness once a job is in hand past the bound, and recovers when it ends', () => {
      const h = health();
      h.consuming();
      const done = h.jobStarted('job-1');
      now += BOUND;
      expect(h.liveness().ok).to.equal(true);
      now += 1;
      expect(h.liveness()).to.deep.equal({ ok: false, message: 'job job-1 in hand for 80 s (bound 80 s)' });
      done();
      expect(h.liveness().ok).to.equal(true);
    });

    it('tracks two deliveries of one job apart: the end of the later one leaves the older in hand', () => {
      const h = health();
      h.jobStarted('job-1');
      now += 50_000;
      const second = h.jobStarted('job-1');
      second();
      now += 31_000;
      expect(h.liveness()).to.deep.equal({ ok: false, message: 'job job-1 in hand for 81 s (bound 80 s)' });
    });

    it('fails both probes when the consumer stopped on its own, and stays failed', () => {
      const h = health();
      h.consuming();
      h.failed('group coordinator refused: not authorized');
      h.consuming();
      h.draining();
      expect(h.liveness()).to.deep.equal({
        ok: false,
        message: 'consumer stopped: group coordinator refused: not authorized',
      });
      expect(h.readiness().ok).to.equal(false);
    });

    it("follows the consumer's own state: a restarting crash is alive but not ready until it rejoins; one it will not restart from fails liveness", () => {
      const h = health();
      reportConsumerState(h, { phase: 'joined' });
      expect(h.readiness().ok).to.equal(true);
      reportConsumerState(h, {
        phase: 'crashed',
        error: 'The coordinator is not aware of this member',
        restarting: true,
      });
      expect(h.liveness().ok).to.equal(true);
      expect(h.readiness()).to.deep.equal({ ok: false, message: 'starting' });
      reportConsumerState(h, { phase: 'joined' });
      expect(h.readiness().ok).to.equal(true);
      reportConsumerState(h, { phase: 'crashed', error: 'SASL authentication failed', restarting: false });
      expect(h.liveness()).to.deep.equal({
        ok: false,
        message: 'consumer stopped: consumer crashed: SASL authentication failed',
      });
      reportConsumerState(h, { phase: 'joined' });
      expect(h.liveness().ok, 'a stopped consumer stays failed').to.equal(false);
    });

    it('is alive but not ready while draining on SIGTERM', () => {
      const h = health();
      h.consuming();
      h.draining();
      expect(h.liveness().ok).to.equal(true);
      expect(h.readiness()).to.deep.equal({ ok: false, message: 'draining' });
    });
  });

  it('liveness and readiness read only the snapshot and the clock', () => {
    const s = { phase: 'consuming' as const, jobs: [{ jobId: 'a', since: 0 }] };
    expect(liveness(s, 10, 10).ok).to.equal(true);
    expect(liveness(s, 11, 10).ok).to.equal(false);
    expect(readiness(s).ok).to.equal(true);
  });

  describe('stuckAfterMs', () => {
    const base = { DOCX_PARSER_TIME_LIMIT_MS: 20_000, DOCX_PARSER_THREADS: 1 };

    it('allows the parses queued ahead of a job, plus a minute of slack', () => {
      expect(stuckAfterMs(base, 1)).to.equal(80_000);
      expect(stuckAfterMs(base, 3)).to.equal(120_000);
      expect(stuckAfterMs({ ...base, DOCX_PARSER_THREADS: 2 }, 3)).to.equal(100_000);
    });

    it('adds the external parser timeout and the media allowance when they are configured', () => {
      expect(stuckAfterMs({ ...base, DOCX_PARSER_URL: 'http://parser' }, 1)).to.equal(200_000);
      expect(stuckAfterMs({ ...base, DOCUMENT_SERVICE_URL: 'http://documents' }, 1)).to.equal(680_000);
    });

    it('takes DOCX_WORKER_STUCK_MS as it is when set', () => {
      expect(stuckAfterMs({ ...base, DOCX_WORKER_STUCK_MS: 30_000 }, 8)).to.equal(30_000);
    });
  });
});
