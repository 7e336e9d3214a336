// Pure: the candidate pool (organization refs, then global ones, then the request's additions)
// and how a classifier's answer (id, code or name) resolves in it.
import type { StoredRef, TypeDef } from '../../store/ai-classify-store.js';
import type { TaxonomyKind } from '../../store/catalog-models.js';
import { foldText } from '../catalog/scope.js';

export type { StoredRef, TypeDef } from '../../store/ai-classify-store.js';

export type Origin = 'ORGANIZATION' | 'GLOBAL' | 'REQUEST';

/** A taxonomy ref as a candidate; curriculum nodes may carry the refs they belong to. */
export interface RefCandidate {
  id: string;
  kind: TaxonomyKind;
  code: string;
  name: string;
  organizationId: string | null;
  origin: Origin;
  numericLevel?: number | null;
  engineDifficulty?: string | null;
  subjectId?: string | null;
  gradeId?: string | null;
  curriculumId?: string | null;
}

/** A request `taxonomy` item: only adds candidates, never replaces a stored ref. */
export type RequestRef = Omit<RefCandidate, 'origin' | 'organizationId'>;

const LINKS = ['numericLevel', 'engineDifficulty', 'subjectId', 'gradeId', 'curriculumId'] as const;

function candidateOf(row: StoredRef, organizationId: string): RefCandidate {
  const c: RefCandidate = {
    id: row._id,
    kind: row.kind,
    code: row.code,
    name: row.name,
    organizationId: row.organizationId,
    origin: row.organizationId === organizationId ? 'ORGANIZATION' : 'GLOBAL',
  };
  for (const k of LINKS)
    if (row[k] !== undefined && row[k] !== null) (c as unknown as Record<string, unknown>)[k] = row[k];
  return c;
}

/** Organization refs first, then global ones, then request additions whose id is not stored. */
export function buildPool(stored: StoredRef[], extra: RequestRef[], organizationId: string): RefCandidate[] {
  const own = stored.filter((r) => r.organizationId === organizationId).map((r) => candidateOf(r, organizationId));
  const global = stored.filter((r) => r.organizationId === null).map((r) => candidateOf(r, organizationId));
  const ids = new Set([...own, ...global].map((c) => c.id));
  const added = extra
    .filter((r) => !ids.has(r.id))
    .map((r): RefCandidate => ({ ...r, organizationId, origin: 'REQUEST' }));
  return [...own, ...global, ...added];
}

/** One candidate per (kind, code), the first in pool order: an organization ref hides a global one. */
export function visibleOf(pool: RefCandidate[], kind: TaxonomyKind): RefCandidate[] {
  const seen = new Set<string>();
  return pool.filter((c) => {
    if (c.kind !== kind || seen.has(c.code)) return false;
    seen.add(c.code);
    return true;
  });
}

const folded = (s: string) => foldText(s).trim().replace(/\s+/g, ' ');

/**
 * Resolves a classifier's value: id, then exact code, then code ignoring case, then name folded
 * (case and Vietnamese diacritics); each step scans organization, global, then request candidates.
 */
export function resolveRef(pool: RefCandidate[], kind: TaxonomyKind, value: string): RefCandidate | null {
  const ofKind = pool.filter((c) => c.kind === kind);
  const f = folded(value);
  return (
    ofKind.find((c) => c.id === value) ??
    ofKind.find((c) => c.code === value) ??
    ofKind.find((c) => c.code.toUpperCase() === value.toUpperCase()) ??
    ofKind.find((c) => folded(c.name) === f) ??
    null
  );
}

/** Active definitions in the writer's scope first, then global system ones whose code is not taken. */
export function typePool(defs: TypeDef[], organizationId: string): TypeDef[] {
  const own = defs.filter((d) => d.organizationId === organizationId);
  const codes = new Set(own.map((d) => d.code));
  return [...own, ...defs.filter((d) => d.organizationId === null && !codes.has(d.code))];
}

/** customTypeId: an active definition by id, then code (any case), then folded name. */
export function resolveType(pool: TypeDef[], value: string): TypeDef | null {
  const f = folded(value);
  return (
    pool.find((d) => d._id === value) ??
    pool.find((d) => d.code === value.toUpperCase()) ??
    pool.find((d) => folded(d.name) === f) ??
    null
  );
}
