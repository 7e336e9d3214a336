// The owner-checked read models, named: the domain says which one and the store picks its model.
import type { Model } from 'mongoose';
import type { ExamRefRow, OrganizationRefRow, TaxonomyRefRow, UsageCountRow, UserRefRow } from './catalog-models.js';
import { ownersOf, upsertOwned, type StoreModels } from './catalog-store.js';

/** Each read model written with an owner check, by its model's name, and the rows it holds. */
export interface ReadModelRows {
  TaxonomyRef: TaxonomyRefRow;
  UsageCount: UsageCountRow;
  UserRef: UserRefRow;
  OrganizationRef: OrganizationRefRow;
  ExamRef: ExamRefRow;
}

/** The name of one owner-checked read model. */
export type ReadModelName = keyof ReadModelRows;

/** The fields every read-model row has: its id and its organization (null: global). */
export interface OwnedRow {
  _id: string;
  organizationId: string | null;
}

type ReadModels = { [K in ReadModelName]: Model<ReadModelRows[K]> };

// Checked, not cast: the store's models hold each read model under its name with its row type.
const modelOf = <K extends ReadModelName>(m: ReadModels, name: K): Model<ReadModelRows[K]> => m[name];

/** `_id` -> `organizationId` of the named read model's rows that exist; no ids, no query. */
export const readModelOwners = (m: StoreModels, name: ReadModelName, ids: string[]) => ownersOf(modelOf(m, name), ids);

/** Upserts rows of the named read model within their organizations (see upsertOwned; `repair` by id alone). */
export const upsertReadModel = <K extends ReadModelName>(
  m: StoreModels,
  name: K,
  rows: Array<Partial<ReadModelRows[K]> & OwnedRow>,
  repair: ReadonlySet<string>,
) => upsertOwned(modelOf(m, name), rows, repair);
