// Paging arithmetic for list reads (DESIGN.md's clamp): pure, so domain code pages with it too.

/** A list's own paging defaults, where its contract differs from DESIGN.md's. */
export interface PageOptions {
  /** Limit when none (or garbage) is given; DESIGN.md: 20. */
  defaultLimit?: number;
  /** Largest limit; larger asks are clamped to it. DESIGN.md: 100. */
  maxLimit?: number;
}

/** One page of a list read: what `pageParams` gives and stores take. */
export interface PageParams {
  page: number;
  limit: number;
  /** Rows to skip: `(page - 1) * limit`. */
  skip: number;
}

/** A list answer's `meta`. */
export interface ListMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/**
 * The clamp's bounds (the http layer's `pagingKeys` documents them): limit 20 by default and at
 * most 100; `maxPage` keeps `skip` a safe integer MongoDB accepts whatever page a client asks for.
 */
export const PAGE_BOUNDS = Object.freeze({ defaultLimit: 20, maxLimit: 100, maxPage: 1_000_000 });

/**
 * Paging from a query, with DESIGN.md's clamp and never an error: `page` defaults to 1 and is
 * clamped to 1..1,000,000; `limit` defaults to 20 and is clamped to 1..100 (the analytics contract
 * says "clamped"). Absent, empty, non-numeric or repeated-and-garbage values take the default;
 * numbers out of range take the nearest bound; fractions are truncated. So `limit=0` is 1,
 * `limit=500` is 100, `page=-3` is 1 and `page=abc` is 1 — a 200, not a 400.
 */
export function pageParams(query: { page?: unknown; limit?: unknown }, opts: PageOptions = {}): PageParams {
  const maxLimit = opts.maxLimit ?? PAGE_BOUNDS.maxLimit;
  const page = clampInt(query.page, 1, 1, PAGE_BOUNDS.maxPage);
  const limit = clampInt(query.limit, opts.defaultLimit ?? PAGE_BOUNDS.defaultLimit, 1, maxLimit);
  return { page, limit, skip: (page - 1) * limit };
}

/** `{ page, limit, total, totalPages }`; `totalPages` is 0 when there is nothing to list. */
export function listMeta(page: { page: number; limit: number }, total: number): ListMeta {
  return { page: page.page, limit: page.limit, total, totalPages: Math.ceil(total / page.limit) };
}

function clampInt(raw: unknown, fallback: number, min: number, max: number): number {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'number' && (typeof value !== 'string' || value.trim() === '')) return fallback;
  const n = Number(value);
  if (Number.isNaN(n)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(n)));
}
