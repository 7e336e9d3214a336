// The upload middleware's shares and pace (issue 33): who holds an upload slot, what one holder
// may hold, and the refusals past a share or past the pace.
import type { Request, Response } from 'express';
import { AppError, paceTimeout, type BodyCut, type BodyPace } from '../core/index.js';

/** Who an upload is for: its caller and its organization (either may be absent: not counted). */
export interface UploadHolders {
  client?: string;
  organization?: string;
}

export interface UploadShareOptions {
  /**
   * Who an upload is for, read before the body (the route's caller and organization, from headers
   * a middleware before this one checked): one holder past its share of `maxConcurrent` is 429
   * RATE_LIMITED (Retry-After, error.details.reason UPLOADS_PER_CLIENT or
   * UPLOADS_PER_ORGANIZATION), so one client or one organization never takes every slot.
   */
  holders?: (req: Request, res: Response) => UploadHolders;
  /** Uploads one client may spool at once (with `holders`); 0 or absent is no cap. */
  maxPerClient?: number;
  /** Uploads one organization may spool at once (with `holders`); 0 or absent is no cap. */
  maxPerOrganization?: number;
  /**
   * The pace the body must keep while it is spooled (the core's body pace): an upload that stops
   * or trickles is 408 REQUEST_TIMEOUT (error.details.reason BODY_IDLE or BODY_TOO_SLOW), its
   * connection closed and its slot freed. Absent: no pace (only the server's own timeouts).
   */
  pace?: BodyPace;
}

/** The share and pace options of `upload()`, with their defaults (0: no cap; no pace). */
export function shareSettings<H>(opts: {
  holders?: H;
  maxPerClient?: number;
  maxPerOrganization?: number;
  pace?: BodyPace;
}) {
  return {
    holders: opts.holders,
    maxPerClient: opts.maxPerClient ?? 0,
    maxPerOrganization: opts.maxPerOrganization ?? 0,
    pace: opts.pace,
  };
}

/** 429 for a holder past its share: nothing of the upload was read. */
export function overShare(holder: keyof UploadHolders, max: number, retryAfterS: number): AppError {
  const whose = holder === 'client' ? 'this client' : 'this organization';
  return new AppError('RATE_LIMITED', `Too many uploads in progress for ${whose}; retry shortly`, {
    details: { reason: holder === 'client' ? 'UPLOADS_PER_CLIENT' : 'UPLOADS_PER_ORGANIZATION', max },
    headers: { 'Retry-After': String(retryAfterS) },
  });
}

/** 408 with the connection closed behind it: the rest of the body is never read. */
export function tooSlow(reason: BodyCut, pace: BodyPace): AppError {
  return paceTimeout(reason, pace, 'The upload');
}
