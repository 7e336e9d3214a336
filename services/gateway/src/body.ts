// A client's request body at the edge: cut when it stops or trickles (the kit's body pace), and
// counted as in flight until it has ended, so neither an unfinished body nor a slow one holds an
// upstream socket, or a client's slot, for longer than the pace allows.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  AppError,
  paceEnabled,
  paceTimeout,
  watchBodyPace,
  type BodyCut,
  type BodyPace,
} from '../../kit/src/core/index.js';
import { hasBody } from './proxy.js';

/** 408 with the connection closed behind it: the rest of the body is never read. */
export function requestTimeout(reason: BodyCut, pace: BodyPace): AppError {
  return paceTimeout(reason, pace, 'The request body');
}

/**
 * Watches the body's pace from the first byte on. A cut aborts the returned signal with a 408
 * (the exchange answers it and ends its upstream request: proxy.ts); when the answer has already
 * started, or nothing forwards the request (a refusal of the gateway's own, its body read and
 * dropped), the client's connection is closed instead. Undefined for a request without a body.
 */
export function paceBody(
  req: IncomingMessage,
  res: ServerResponse,
  pace: BodyPace,
  fail: (err: AppError) => void,
): AbortSignal | undefined {
  if (!hasBody(req) || !paceEnabled(pace)) return undefined;
  const controller = new AbortController();
  watchBodyPace(req, pace, (reason) => {
    const answered = res.headersSent;
    controller.abort(requestTimeout(reason, pace));
    if (answered) req.socket.destroy();
    else if (!res.headersSent) fail(requestTimeout(reason, pace));
  });
  return controller.signal;
}

/**
 * Calls `done` once the exchange is over on both sides: its answer has ended (or the client went
 * away) and its body has ended (or its connection closed). A body that keeps arriving after its
 * answer keeps the client's slot.
 */
export function whenExchangeEnds(req: IncomingMessage, res: ServerResponse, done: () => void): void {
  let open = 0;
  const side = (ended: boolean, watch: (end: () => void) => void) => {
    if (ended) return;
    open += 1;
    let over = false;
    watch(() => {
      if (over) return;
      over = true;
      open -= 1;
      if (open === 0) done();
    });
  };
  side(res.writableFinished || res.destroyed, (end) => {
    res.once('finish', end);
    res.once('close', end);
  });
  side(!hasBody(req) || req.readableEnded || req.destroyed, (end) => {
    req.once('end', end);
    req.once('close', end);
  });
  if (open === 0) done();
}
