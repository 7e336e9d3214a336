import type { Response } from 'express';

// The list envelope (`data: { items, meta }`, page/limit clamping) arrives with the first list route.

/** `{ success: true, data, message }` with `OK` unless the contract names another message. */
export function ok(res: Response, data: unknown, message = 'OK', status = 200): void {
  res.status(status).json({ success: true, data, message });
}
