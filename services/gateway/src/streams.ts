// Event streams end with their session (issue 33, 7): every stream the gateway holds open for a
// token is known here with its caller, and a sweep ends those whose session was revoked at auth
// (logout, account disable, a membership removed or a role changed: the revocation feed) or whose
// access token has expired. The client hears why in a last event, then the stream closes; an
// EventSource reconnects with the token it has and meets the gateway's 401.
import type { Caller } from './identity.js';
import type { RevocationSet } from './revocation.js';

export type StreamEnd = 'revoked' | 'expired';

/** The last event a stream ends with: `event: session-ended` and `{"reason":"revoked"|"expired"}`. */
export function sessionEndedEvent(reason: StreamEnd): string {
  return `event: session-ended\ndata: ${JSON.stringify({ reason })}\n\n`;
}

export interface OpenStreams {
  /** Registers a stream held for `caller`; `end` cuts it. The returned function forgets it (call it when it closes). */
  open(caller: Caller, end: (reason: StreamEnd) => void): () => void;
  /** Ends every stream whose session is revoked or whose token expired by `nowMs`; returns how many per reason. */
  sweep(revocations: RevocationSet | undefined, nowMs: number): Record<StreamEnd, number>;
  readonly size: number;
}

interface Held {
  caller: Caller;
  end: (reason: StreamEnd) => void;
}

/** O(open streams) per sweep: their number is bounded by the per-client stream cap times the clients. */
export function createOpenStreams(): OpenStreams {
  const held = new Set<Held>();
  const reasonOf = (h: Held, revocations: RevocationSet | undefined, nowMs: number): StreamEnd | undefined => {
    if (revocations?.isRevoked(h.caller, nowMs)) return 'revoked';
    return h.caller.exp * 1000 <= nowMs ? 'expired' : undefined;
  };
  return {
    open(caller, end) {
      const h = { caller, end };
      held.add(h);
      return () => held.delete(h);
    },
    sweep(revocations, nowMs) {
      const ended: Record<StreamEnd, number> = { revoked: 0, expired: 0 };
      for (const h of held) {
        const reason = reasonOf(h, revocations, nowMs);
        if (!reason) continue;
        held.delete(h);
        ended[reason] += 1;
        h.end(reason);
      }
      return ended;
    },
    get size() {
      return held.size;
    },
  };
}
