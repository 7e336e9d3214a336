import { expect } from 'chai';
import type { V1Lease } from '@kubernetes/client-node';
import { leaderTimings } from '../src/config.js';
import { leaseAction, leaseFor, observe, releasedLease, stillLeading } from '../src/lease.js';

const lease = (
  holder: string,
  renewTime = '2025-01-01T00:00:00.000000Z',
  durationSec = 15,
  transitions = 2,
): V1Lease => ({
  metadata: { name: 'docx-import-operator', namespace: 'ops', resourceVersion: '41' },
  spec: {
    holderIdentity: holder,
    renewTime: renewTime as never,
    acquireTime: '2024-12-31T23:00:00.000000Z' as never,
    leaseDurationSeconds: durationSec,
    leaseTransitions: transitions,
  },
});

describe('leader election rules', () => {
  describe('leaseAction', () => {
    it('creates the lease when there is none', () => {
      expect(leaseAction(undefined, 'me', observe(undefined, undefined, 0), 0)).to.deep.equal({ kind: 'create' });
    });

    it('renews a lease it holds', () => {
      const l = lease('me');
      expect(leaseAction(l, 'me', observe(undefined, l, 0), 0).kind).to.equal('renew');
    });

    it('takes over a released lease at once', () => {
      const l = lease('');
      expect(leaseAction(l, 'me', observe(undefined, l, 0), 0).kind).to.equal('takeover');
    });

    it('waits while another holder renews, judging expiry from when it saw the record change', () => {
      const first = lease('other', '2025-01-01T00:00:00.000000Z');
      const seen1 = observe(undefined, first, 1_000);
      expect(leaseAction(first, 'me', seen1, 15_999)).to.deep.equal({ kind: 'wait', holder: 'other' });
      // The holder renewed at 10 s local time: its lease runs 15 s from then, whatever its renewTime says.
      const renewed = lease('other', '2025-01-01T00:00:09.000000Z');
      const seen2 = observe(seen1, renewed, 10_000);
      expect(leaseAction(renewed, 'me', seen2, 16_000).kind).to.equal('wait');
      expect(leaseAction(renewed, 'me', seen2, 25_000).kind).to.equal('takeover');
    });

    it('takes over a lease whose holder stopped renewing for the lease duration', () => {
      const l = lease('crashed');
      const seen = observe(undefined, l, 0);
      expect(leaseAction(l, 'me', observe(seen, l, 14_000), 14_000).kind).to.equal('wait');
      expect(leaseAction(l, 'me', observe(seen, l, 15_000), 15_000).kind).to.equal('takeover');
    });
  });

  describe('leaseFor', () => {
    const now = new Date('2025-01-01T00:00:05.123Z');

    it('renews: keeps acquireTime and transitions, moves renewTime, keeps resourceVersion for compare-and-swap', () => {
      const next = leaseFor('renew', lease('me'), { identity: 'me', durationSec: 15 }, now);
      expect(next.metadata?.resourceVersion).to.equal('41');
      expect(next.spec?.acquireTime as unknown).to.equal('2024-12-31T23:00:00.000000Z');
      expect(next.spec?.leaseTransitions).to.equal(2);
      expect(JSON.parse(JSON.stringify(next.spec)).renewTime).to.equal('2025-01-01T00:00:05.123000Z');
    });

    it('takes over: new holder, new acquireTime, one more transition', () => {
      const next = leaseFor('takeover', lease('other'), { identity: 'me', durationSec: 20 }, now);
      expect(next.spec).to.include({ holderIdentity: 'me', leaseDurationSeconds: 20, leaseTransitions: 3 });
      expect(next.spec?.acquireTime?.toISOString()).to.equal('2025-01-01T00:00:05.123000Z');
    });

    it('writes API server MicroTime (six fractional digits), which a millisecond ISO string is not', () => {
      const json = JSON.parse(JSON.stringify(leaseFor('create', undefined, { identity: 'me', durationSec: 15 }, now)));
      expect(json.spec.renewTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    });
  });

  describe('releasedLease', () => {
    it('empties the holder and shortens the duration so a successor takes over without waiting', () => {
      const released = releasedLease(lease('me'), new Date('2025-01-01T00:00:06Z'));
      expect(released.spec).to.include({ holderIdentity: '', leaseDurationSeconds: 1 });
      expect(leaseAction(released, 'next', observe(undefined, released, 0), 0).kind).to.equal('takeover');
    });
  });

  describe('stillLeading (the renew deadline, by an injected clock)', () => {
    it('holds from a renewal sent at t until t + renewDeadline, and not a moment longer', () => {
      expect(stillLeading(1000, 1000, 4000)).to.equal(true);
      expect(stillLeading(1000, 4999, 4000)).to.equal(true);
      expect(stillLeading(1000, 5000, 4000)).to.equal(false);
      expect(stillLeading(undefined, 0, 4000), 'never renewed').to.equal(false);
    });

    it('a leader whose renewals fail has stopped before any competitor may take its lease over', () => {
      // For each lease duration and each moment a competitor first sees our last renewal (never
      // before we sent it): at the first instant leaseAction lets it take over, we no longer lead.
      for (const durationSec of [2, 6, 15, 60]) {
        const { renewDeadlineMs } = leaderTimings(durationSec);
        const sentAt = 50_000;
        const ours = lease('me', '2025-01-01T00:00:00.000000Z', durationSec);
        for (const seenAfterMs of [0, 1, 250, 3000]) {
          const seen = observe(undefined, ours, sentAt + seenAfterMs);
          let t = sentAt;
          while (leaseAction(ours, 'other', seen, t).kind === 'wait') t += 1;
          expect(stillLeading(sentAt, t, renewDeadlineMs), `${durationSec} s lease, seen +${seenAfterMs} ms`).to.equal(
            false,
          );
          expect(t - (sentAt + renewDeadlineMs), 'margin for a write already on the wire').to.be.at.least(
            durationSec * 1000 - renewDeadlineMs,
          );
        }
      }
    });
  });
});
