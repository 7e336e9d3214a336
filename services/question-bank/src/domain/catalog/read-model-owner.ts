// Who may write which read-model row. Every row belongs to one organization (taxonomy may be
// global), ids are unique across organizations, and a write never matches, overwrites or reveals a
// row of another organization: an item naming such an id refuses the whole batch with 409
// READ_MODEL_ID_CONFLICT before anything is written.
import { AppError, type Actor } from '../../../../kit/src/core/index.js';
import { isDuplicateKey } from '../../../../kit/src/data/index.js';
import * as store from '../../store/catalog-store.js';
import {
  readModelOwners,
  upsertReadModel,
  type OwnedRow,
  type ReadModelName,
  type ReadModelRows,
} from '../../store/read-model-owners.js';
import type { QuestionBankDeps } from '../deps.js';
import { isPlatformAdmin, TENANCY_MSG } from '../tenancy.js';
import { writeScope } from './scope.js';

export const READ_MODEL_ID_CONFLICT = 'READ_MODEL_ID_CONFLICT';

/** The organization rows are written for: X-Organization-Id, or null (global) for the platform ADMIN. */
export function backfillOrganization(actor: Actor, opts: { globalAllowed: boolean }): string | null {
  if (opts.globalAllowed && isPlatformAdmin(actor)) return null;
  // Where global rows exist, naming no organization is a request for them: only the platform may.
  if (opts.globalAllowed && actor.userId !== undefined && actor.organizationId === undefined) {
    throw new AppError('FORBIDDEN', 'Global rows are written only by the platform ADMIN (no X-Organization-Id)');
  }
  return writeScope(actor).organizationId;
}

/** An item's own `organizationId` may only restate the writer's organization (omitted: the writer's). */
export function itemOrganization(writerOrg: string | null, given: string | null | undefined, path: string) {
  if (given === undefined || given === writerOrg) return writerOrg;
  throw new AppError('FORBIDDEN', 'Read-model rows are written only for the organization of X-Organization-Id', {
    details: [{ path, message: 'must be omitted or equal X-Organization-Id (global rows: ADMIN without it)' }],
  });
}

function conflict(paths: string[]): AppError {
  return new AppError(READ_MODEL_ID_CONFLICT, TENANCY_MSG.foreignId, {
    details: paths.map((path) => ({ path, message: 'is held by another organization; nothing was written' })),
  });
}

export interface OwnedWrite<K extends ReadModelName> {
  rows: Array<Partial<ReadModelRows[K]> & OwnedRow>;
  /** The request path of each row's id, for the 409's details. */
  paths: string[];
  /** Rows known to be the writer's (their question is); matched by id alone, which repairs them. */
  repair?: ReadonlySet<string>;
  /** Indexes refused up front (their question is another organization's). */
  foreign?: number[];
}

/** Writes the rows in their organization, or refuses the batch if any id is another organization's. */
export async function writeOwned<K extends ReadModelName>(
  deps: QuestionBankDeps,
  name: K,
  w: OwnedWrite<K>,
): Promise<number> {
  const repair = w.repair ?? new Set<string>();
  const owners = await readModelOwners(
    deps.models,
    name,
    w.rows.filter((r) => !repair.has(r._id)).map((r) => r._id),
  );
  const foreign = new Set(w.foreign ?? []);
  w.rows.forEach((r, i) => {
    if (!repair.has(r._id) && owners.has(r._id) && owners.get(r._id) !== r.organizationId) foreign.add(i);
  });
  if (foreign.size > 0) throw conflict([...foreign].sort((a, b) => a - b).map((i) => w.paths[i]!));
  try {
    return await upsertReadModel(deps.models, name, w.rows, repair);
  } catch (err) {
    // Another organization took an id between the check and the write.
    if (isDuplicateKey(err)) throw conflict([]);
    throw err;
  }
}

/**
 * Usage counts and exam refs are about a question: rows of the writer's own question are the
 * writer's (repaired if a stale row says otherwise); another organization's question is refused;
 * an id no question has is claimed for the writer's organization.
 */
export async function byQuestion(deps: QuestionBankDeps, organizationId: string | null, questionIds: string[]) {
  const orgs = await store.questionOrganizations(deps.models, [...new Set(questionIds)]);
  const own = new Set([...orgs].filter(([, org]) => org === organizationId).map(([id]) => id));
  const foreign = questionIds.flatMap((id, i) => (orgs.has(id) && !own.has(id) ? [i] : []));
  return { own, foreign };
}
