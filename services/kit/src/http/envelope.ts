import type { Response } from 'express';
import Joi from 'joi';

/** `{ success: true, data, message }` with `OK` unless the contract names another message. */
export function ok(res: Response, data: unknown, message = 'OK', status = 200): void {
  res.status(status).json({ success: true, data, message });
}

export interface PageOptions {
  /** Limit when none (or garbage) is given; DESIGN.md: 20. */
  defaultLimit?: number;
  /** Largest limit; larger asks are clamped to it. DESIGN.md: 100. */
  maxLimit?: number;
}

export interface PageParams {
  page: number;
  limit: number;
  /** Rows to skip: `(page - 1) * limit`. */
  skip: number;
}

export interface ListMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
// Keeps `skip` a safe integer MongoDB accepts whatever page a client asks for.
const MAX_PAGE = 1_000_000;

/**
 * Paging from a query, with DESIGN.md's clamp and never an error: `page` defaults to 1 and is
 * clamped to 1..1,000,000; `limit` defaults to 20 and is clamped to 1..100 (the analytics contract
 * says "clamped"). Absent, empty, non-numeric or repeated-and-garbage values take the default;
 * numbers out of range take the nearest bound; fractions are truncated. So `limit=0` is 1,
 * `limit=500` is 100, `page=-3` is 1 and `page=abc` is 1 — a 200, not a 400.
 */
export function pageParams(query: { page?: unknown; limit?: unknown }, opts: PageOptions = {}): PageParams {
  const maxLimit = opts.maxLimit ?? MAX_LIMIT;
  const page = clampInt(query.page, 1, 1, MAX_PAGE);
  const limit = clampInt(query.limit, opts.defaultLimit ?? DEFAULT_LIMIT, 1, maxLimit);
  return { page, limit, skip: (page - 1) * limit };
}

/**
 * The same clamp as joi keys, to spread into a route's query schema
 * (`Joi.object({ ...pagingKeys(), subjectId: ... })`): `page` and `limit` come out as clamped
 * integers and never fail validation. Pass the validated query to `pageParams` for `skip`.
 */
export function pagingKeys(opts: PageOptions = {}): { page: Joi.NumberSchema; limit: Joi.NumberSchema } {
  const clamp = (field: 'page' | 'limit') => (value: unknown) => pageParams({ [field]: value }, opts)[field];
  const defaultLimit = opts.defaultLimit ?? DEFAULT_LIMIT;
  const never400 = 'a non-number is the default (never a 400).';
  const page = Joi.any()
    .custom(clamp('page'))
    .default(1)
    .description(`Default 1; clamped to 1..${MAX_PAGE.toLocaleString('en-US')}; ${never400}`);
  const limit = Joi.any()
    .custom(clamp('limit'))
    .default(defaultLimit)
    .description(`Default ${defaultLimit}; clamped to 1..${opts.maxLimit ?? MAX_LIMIT}; ${never400}`);
  // Any value is accepted and comes out a clamped integer: typed as what the handler gets.
  return { page: page as unknown as Joi.NumberSchema, limit: limit as unknown as Joi.NumberSchema };
}

/** `{ page, limit, total, totalPages }`; `totalPages` is 0 when there is nothing to list. */
export function listMeta(page: { page: number; limit: number }, total: number): ListMeta {
  return { page: page.page, limit: page.limit, total, totalPages: Math.ceil(total / page.limit) };
}

/**
 * The list envelope `{ success: true, data: { items, meta }, message }`. `meta` takes the
 * `PageParams` (or any `{ page, limit }`) and the total count; `totalPages` is computed.
 */
export function list(
  res: Response,
  items: readonly unknown[],
  meta: { page: number; limit: number; total: number },
  message = 'OK',
): void {
  ok(res, { items, meta: listMeta(meta, meta.total) }, message);
}

function clampInt(raw: unknown, fallback: number, min: number, max: number): number {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'number' && (typeof value !== 'string' || value.trim() === '')) return fallback;
  const n = Number(value);
  if (Number.isNaN(n)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}
