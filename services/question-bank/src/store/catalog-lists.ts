// The catalog's list queries: the domain says which rows it wants as plain values, the filter
// documents are written here.
import type { FilterQuery } from 'mongoose';
import type {
  QuestionFolderRow,
  QuestionGroupRow,
  QuestionTypeRow,
  TaxonomyKind,
  TaxonomyRefRow,
} from './catalog-models.js';
import { pageOf, type Page, type StoreModels } from './catalog-store.js';

/** One organization's rows (null: the global scope), or every organization's when `allOrgs`. */
export interface OrgScope {
  organizationId: string | null;
  allOrgs: boolean;
}

const inScope = (scope: OrgScope) => (scope.allOrgs ? {} : { organizationId: scope.organizationId });

/** Folders of a scope; with `visibleTo`, only that user's own folders and the non-private ones. */
export interface FolderFilter {
  scope: OrgScope;
  visibleTo?: { userId: string | null };
}

/** A page of folders by name. */
export function folderPage(m: StoreModels, f: FolderFilter, page: Page) {
  const filter: FilterQuery<QuestionFolderRow> = inScope(f.scope);
  if (f.visibleTo) filter.$or = [{ createdById: f.visibleTo.userId }, { visibility: { $ne: 'PRIVATE' } }];
  return pageOf<QuestionFolderRow>(m.QuestionFolder, filter, page, { name: 1, _id: 1 });
}

/** Groups of a scope, optionally one author's, optionally those whose folded text matches `search`. */
export interface GroupFilter {
  scope: OrgScope;
  createdById?: string;
  search?: RegExp;
}

/** A page of groups, newest first. */
export function groupPage(m: StoreModels, f: GroupFilter, page: Page) {
  const filter: FilterQuery<QuestionGroupRow> = inScope(f.scope);
  if (f.createdById !== undefined) filter.createdById = f.createdById;
  if (f.search) filter.searchText = f.search;
  return pageOf<QuestionGroupRow>(m.QuestionGroup, filter, page, { createdAt: -1, _id: -1 });
}

/** Taxonomy rows of these organizations (absent: all), of a kind and status, whose folded text matches `search`. */
export interface TaxonomyFilter {
  organizationIds?: Array<string | null>;
  kind?: TaxonomyKind;
  status?: string;
  search?: RegExp;
}

/** A page of taxonomy rows by kind and code. */
export function taxonomyPage(m: StoreModels, f: TaxonomyFilter, page: Page) {
  const filter: FilterQuery<TaxonomyRefRow> = {};
  if (f.organizationIds) filter.organizationId = { $in: f.organizationIds };
  if (f.kind) filter.kind = f.kind;
  if (f.status) filter.status = f.status;
  if (f.search) filter.searchText = f.search;
  return pageOf<TaxonomyRefRow>(m.TaxonomyRef, filter, page, { kind: 1, code: 1, _id: 1 });
}

/**
 * The type definitions a reader sees: a scope's system definitions and its custom ones (with
 * `createdById`, only that author's), of a status, whose code or name matches `search`.
 */
export interface TypeFilter {
  scope: OrgScope;
  createdById?: string;
  status?: QuestionTypeRow['status'];
  search?: RegExp;
}

function typeFilter(f: TypeFilter): FilterQuery<QuestionTypeRow> {
  const custom: FilterQuery<QuestionTypeRow> = { isSystem: false };
  if (f.createdById !== undefined) custom.createdById = f.createdById;
  const filter: FilterQuery<QuestionTypeRow> = { ...inScope(f.scope), $or: [{ isSystem: true }, custom] };
  if (f.status) filter.status = f.status;
  if (f.search) filter.$and = [{ $or: [{ code: f.search }, { name: f.search }] }];
  return filter;
}

/** At most `limit` visible type definitions, system first, then by code. */
export const findTypes = (m: StoreModels, f: TypeFilter, limit: number) =>
  m.QuestionTypeDefinition.find(typeFilter(f))
    .sort({ isSystem: -1, code: 1, _id: 1 })
    .limit(limit)
    .lean<QuestionTypeRow[]>()
    .exec();
