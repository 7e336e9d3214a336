import type { Response } from 'express';
import Joi from 'joi';
import { listMeta, pageParams, PAGE_BOUNDS, type PageOptions } from '../core/index.js';

/** `{ success: true, data, message }` with `OK` unless the contract names another message. */
export function ok(res: Response, data: unknown, message = 'OK', status = 200): void {
  res.status(status).json({ success: true, data, message });
}

/**
 * The same clamp as joi keys, to spread into a route's query schema
 * (`Joi.object({ ...pagingKeys(), subjectId: ... })`): `page` and `limit` come out as clamped
 * integers and never fail validation. Pass the validated query to `pageParams` for `skip`.
 */
export function pagingKeys(opts: PageOptions = {}): { page: Joi.NumberSchema; limit: Joi.NumberSchema } {
  const clamp = (field: 'page' | 'limit') => (value: unknown) => pageParams({ [field]: value }, opts)[field];
  const defaultLimit = opts.defaultLimit ?? PAGE_BOUNDS.defaultLimit;
  const never400 = 'a non-number is the default (never a 400).';
  const page = Joi.any()
    .custom(clamp('page'))
    .default(1)
    .description(`Default 1; clamped to 1..${PAGE_BOUNDS.maxPage.toLocaleString('en-US')}; ${never400}`);
  const limit = Joi.any()
    .custom(clamp('limit'))
    .default(defaultLimit)
    .description(`Default ${defaultLimit}; clamped to 1..${opts.maxLimit ?? PAGE_BOUNDS.maxLimit}; ${never400}`);
  // Any value is accepted and comes out a clamped integer: typed as what the handler gets.
  return { page: page as unknown as Joi.NumberSchema, limit: limit as unknown as Joi.NumberSchema };
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
