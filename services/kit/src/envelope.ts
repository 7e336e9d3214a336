import type { Response } from 'express';

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** `{ success: true, data, message }` with `OK` unless the contract names another message. */
export function ok(res: Response, data: unknown, message = 'OK', status = 200): void {
  res.status(status).json({ success: true, data, message });
}

/** The list shape of DESIGN.md: `data: { items, meta }`. */
export function list(res: Response, items: unknown[], meta: PageMeta, message = 'OK'): void {
  ok(res, { items, meta }, message);
}

export interface PageQuery {
  page: number;
  limit: number;
  skip: number;
}

/** `page` defaults to 1; `limit` defaults to 20 and is clamped to 1..100 (never rejected). */
export function pageQuery(raw: { page?: unknown; limit?: unknown }, defaults = { limit: 20, max: 100 }): PageQuery {
  const page = Math.max(1, toInt(raw.page, 1));
  const limit = Math.min(defaults.max, Math.max(1, toInt(raw.limit, defaults.limit)));
  return { page, limit, skip: (page - 1) * limit };
}

export function pageMeta(q: PageQuery, total: number): PageMeta {
  return { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) };
}

function toInt(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}
