import { V1MicroTime, type V1Lease } from '@kubernetes/client-node';

// Pure leader-election rules over a coordination.k8s.io Lease, after client-go's leaderelection.

/**
 * When this process last saw the lease record change, by its own clock. Expiry is judged from
 * that moment, never from the holder's renewTime, so clock skew between pods cannot cut a lease short.
 */
export interface Observation {
  record: string;
  at: number;
}

export type LeaseAction =
  { kind: 'create' } | { kind: 'renew' } | { kind: 'takeover' } | { kind: 'wait'; holder: string };

export function observe(previous: Observation | undefined, lease: V1Lease | undefined, now: number): Observation {
  const record = recordOf(lease);
  return previous && previous.record === record ? previous : { record, at: now };
}

// The client hands renewTime back as the server's string; a lease we built holds a Date.
function recordOf(lease: V1Lease | undefined): string {
  const spec = lease?.spec ?? {};
  const renew: unknown = spec.renewTime;
  return `${spec.holderIdentity ?? ''}|${renew instanceof Date ? renew.toISOString() : String(renew ?? '')}`;
}

export function leaseAction(lease: V1Lease | undefined, identity: string, seen: Observation, now: number): LeaseAction {
  if (!lease) return { kind: 'create' };
  const holder = lease.spec?.holderIdentity ?? '';
  if (holder === identity) return { kind: 'renew' };
  if (holder === '') return { kind: 'takeover' };
  const durationMs = (lease.spec?.leaseDurationSeconds ?? 0) * 1000;
  return now >= seen.at + durationMs ? { kind: 'takeover' } : { kind: 'wait', holder };
}

/**
 * Whether a leader may still act at `now`, its last successful renewal having been sent at
 * `renewSentAt`. A competitor dates our lease from when it first sees the renewed record, which is
 * after the server stored it, which is after we sent it; so with renewDeadline < lease duration we
 * stop at least (duration - renewDeadline) before anyone can take over, whatever our requests do.
 */
export function stillLeading(renewSentAt: number | undefined, now: number, renewDeadlineMs: number): boolean {
  return renewSentAt !== undefined && now < renewSentAt + renewDeadlineMs;
}

/** The lease record to write for `action`; keeps the resourceVersion so the write is a compare-and-swap. */
export function leaseFor(
  action: 'create' | 'renew' | 'takeover',
  current: V1Lease | undefined,
  who: { identity: string; durationSec: number },
  now: Date,
): V1Lease {
  const micro = new V1MicroTime(now.getTime());
  const spec = current?.spec ?? {};
  const transitions = spec.leaseTransitions ?? 0;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { ...current?.metadata },
    spec: {
      holderIdentity: who.identity,
      leaseDurationSeconds: who.durationSec,
      acquireTime: action === 'renew' && spec.acquireTime ? spec.acquireTime : micro,
      renewTime: micro,
      leaseTransitions: action === 'takeover' ? transitions + 1 : transitions,
    },
  };
}

/** Hands the lease back on a clean shutdown, so a successor need not wait out the duration. */
export function releasedLease(current: V1Lease, now: Date): V1Lease {
  const micro = new V1MicroTime(now.getTime());
  return {
    ...current,
    spec: { ...current.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: micro, renewTime: micro },
  };
}
