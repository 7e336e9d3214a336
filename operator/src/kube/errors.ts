// client-node 1.x throws ApiException with the HTTP status in `code`; the watch sets `statusCode`.

export function httpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown };
  if (typeof e.code === 'number') return e.code;
  if (typeof e.statusCode === 'number') return e.statusCode;
  return undefined;
}

export const isNotFound = (err: unknown): boolean => httpStatus(err) === 404;
export const isConflict = (err: unknown): boolean => httpStatus(err) === 409;
export const isGone = (err: unknown): boolean => httpStatus(err) === 410;

/** The API server's Status message when there is one, else the error's own message; one line. */
export function describeError(err: unknown): string {
  const body = (err as { body?: unknown } | null)?.body;
  const parsed = typeof body === 'string' ? safeParse(body) : body;
  const message = (parsed as { message?: unknown } | undefined)?.message;
  const text = typeof message === 'string' ? message : err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').slice(0, 1000);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
