// A request body's pace: a body that stops (idle) or trickles (below a minimum rate) is cut, so a
// client cannot hold a socket, a pool slot or an upload slot by sending one byte now and then.
// The rule is Apache's mod_reqtimeout `body=20,MinRate=500`: the body gets `graceMs`, plus one
// second per `minBytesPerSecond` bytes received, and never more than `idleMs` between two chunks.
import type { Readable } from 'node:stream';
import { AppError } from './errors.js';

export interface BodyPace {
  /** Time the body gets before the rate counts, in ms; 0 turns the rate rule off. */
  graceMs: number;
  /** Each `minBytesPerSecond` bytes received add a second to the grace; 0 turns the rate rule off. */
  minBytesPerSecond: number;
  /** Longest wait for the next chunk, in ms; 0 turns the idle rule off. */
  idleMs: number;
}

export type BodyCut = 'BODY_IDLE' | 'BODY_TOO_SLOW';

export interface BodyProgress {
  startedMs: number;
  /** When the last chunk came (the start before the first one). */
  lastChunkMs: number;
  /** Bytes of the body received so far. */
  received: number;
}

export type PaceVerdict = { ok: true; checkInMs: number | undefined } | { ok: false; reason: BodyCut };

/** Whether any rule is on. */
export function paceEnabled(pace: BodyPace): boolean {
  return (pace.graceMs > 0 && pace.minBytesPerSecond > 0) || pace.idleMs > 0;
}

/**
 * Pure: whether a body received as `progress` says is still within `pace` at `nowMs`, and if so
 * how long until it could first be out of it (undefined: never, every rule is off).
 */
export function paceVerdict(pace: BodyPace, progress: BodyProgress, nowMs: number): PaceVerdict {
  const deadlines: Array<[number, BodyCut]> = [];
  if (pace.idleMs > 0) deadlines.push([progress.lastChunkMs + pace.idleMs, 'BODY_IDLE']);
  if (pace.graceMs > 0 && pace.minBytesPerSecond > 0) {
    const earned = (progress.received * 1000) / pace.minBytesPerSecond;
    deadlines.push([progress.startedMs + pace.graceMs + earned, 'BODY_TOO_SLOW']);
  }
  if (deadlines.length === 0) return { ok: true, checkInMs: undefined };
  // The earliest deadline passed decides; with none passed, the next check is at the earliest.
  deadlines.sort((a, b) => a[0] - b[0]);
  const [first, reason] = deadlines[0]!;
  if (nowMs >= first) return { ok: false, reason };
  return { ok: true, checkInMs: Math.ceil(first - nowMs) };
}

export interface PaceWatch {
  /** Bytes counted so far. */
  readonly received: number;
  /** Ends the watch (idempotent); it also ends by itself when the body ends or its stream closes. */
  stop(): void;
}

/**
 * Watches `body` (an IncomingMessage) against `pace`; `onCut` is called once when a rule is broken,
 * and the watch ends there. The bytes are counted from a 'data' listener: the caller must consume
 * the body in the same tick (pipe it, or resume it to discard it). One timer, re-armed at the
 * earliest deadline when it fires, not on every chunk.
 */
export function watchBodyPace(
  body: Readable,
  pace: BodyPace,
  onCut: (reason: BodyCut) => void,
  now: () => number = Date.now,
): PaceWatch {
  const startedMs = now();
  const progress: BodyProgress = { startedMs, lastChunkMs: startedMs, received: 0 };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const onData = (chunk: Buffer | string) => {
    progress.received += chunk.length;
    progress.lastChunkMs = now();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    body.off('data', onData);
    body.off('end', stop);
    body.off('close', stop);
  };
  const check = () => {
    if (stopped) return;
    const verdict = paceVerdict(pace, progress, now());
    if (!verdict.ok) {
      stop();
      onCut(verdict.reason);
      return;
    }
    if (verdict.checkInMs !== undefined) timer = setTimeout(check, verdict.checkInMs);
  };
  if (paceEnabled(pace)) {
    body.on('data', onData);
    body.once('end', stop);
    body.once('close', stop);
    check();
  } else {
    stopped = true;
  }
  return {
    get received() {
      return progress.received;
    },
    stop,
  };
}

/** A body cut for its pace: 408 with the connection closed behind the answer (the rest is never read). `what` names
 * the body in the message: "The request body stopped arriving", "The upload arrived too slowly". */
export function paceTimeout(reason: BodyCut, pace: BodyPace, what: string): AppError {
  const how = reason === 'BODY_IDLE' ? 'stopped arriving' : 'arrived too slowly';
  return new AppError('REQUEST_TIMEOUT', `${what} ${how}`, {
    status: 408,
    headers: { Connection: 'close' },
    details: { reason, idleMs: pace.idleMs, graceMs: pace.graceMs, minBytesPerSecond: pace.minBytesPerSecond },
  });
}
