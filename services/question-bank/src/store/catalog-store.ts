import type { FilterQuery, Model } from 'mongoose';
import { isDuplicateKey } from '../../../kit/src/data/index.js';
import type { CatalogModels, QuestionFolderRow, QuestionGroupRow, QuestionTypeRow } from './catalog-models.js';
import type { QuestionModels } from './question-models.js';

export type StoreModels = CatalogModels & QuestionModels;

export interface Page {
  skip: number;
  limit: number;
}

/** Rows and total of one page, newest first (the list indexes end in createdAt, _id). */
export async function pageOf<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  page: Page,
  sort: Record<string, 1 | -1>,
): Promise<{ rows: T[]; total: number }> {
  const [rows, total] = await Promise.all([
    model.find(filter).sort(sort).skip(page.skip).limit(page.limit).lean<T[]>().exec(),
    model.countDocuments(filter).exec(),
  ]);
  return { rows, total };
}

export async function countLiveQuestionsBy(
  m: StoreModels,
  field: 'groupId' | 'folderId' | 'customTypeId',
  ids: string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await m.Question.aggregate<{ _id: string; n: number }>([
    { $match: { [field]: { $in: ids }, removedAt: null } },
    { $group: { _id: `$${field}`, n: { $sum: 1 } } },
  ]).exec();
  return new Map(rows.map((r) => [r._id, r.n]));
}

export const encodeJson = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

export const decodeJson = (text: string | null | undefined): unknown =>
  typeof text === 'string' ? (JSON.parse(text) as unknown) : null;

export const insertGroup = async (m: StoreModels, row: Omit<QuestionGroupRow, 'createdAt' | 'updatedAt'>) =>
  (await m.QuestionGroup.create(row)).toObject() as QuestionGroupRow;

export const findFolder = (m: StoreModels, id: string) =>
  m.QuestionFolder.findById(id).lean<QuestionFolderRow>().exec();

export const insertFolder = async (m: StoreModels, row: Omit<QuestionFolderRow, 'createdAt' | 'updatedAt'>) =>
  (await m.QuestionFolder.create(row)).toObject() as QuestionFolderRow;

export const updateFolder = (m: StoreModels, id: string, set: Partial<QuestionFolderRow>) =>
  m.QuestionFolder.findByIdAndUpdate(id, { $set: set }, { new: true }).lean<QuestionFolderRow>().exec();

export async function folderIsEmpty(m: StoreModels, id: string): Promise<boolean> {
  const [child, question] = await Promise.all([
    m.QuestionFolder.exists({ parentId: id }).exec(),
    m.Question.exists({ folderId: id, removedAt: null }).exec(),
  ]);
  return child === null && question === null;
}

export const deleteFolder = (m: StoreModels, id: string) => m.QuestionFolder.deleteOne({ _id: id }).exec();

export const findTypeById = (m: StoreModels, id: string) =>
  m.QuestionTypeDefinition.findById(id).lean<QuestionTypeRow>().exec();

export const findTypesByIds = (m: StoreModels, ids: string[]) =>
  m.QuestionTypeDefinition.find({ _id: { $in: ids } })
    .lean<QuestionTypeRow[]>()
    .exec();

export const countSystemTypes = (m: StoreModels, organizationId: string | null) =>
  m.QuestionTypeDefinition.countDocuments({ organizationId, isSystem: true, createdById: null }).exec();

/** Idempotent: `$setOnInsert` only, so an admin's later rename or archive survives re-seeding. */
export async function upsertSystemTypes(m: StoreModels, rows: Array<Omit<QuestionTypeRow, 'updatedAt'>>) {
  await m.QuestionTypeDefinition.bulkWrite(
    rows.map((row) => ({
      updateOne: { filter: { _id: row._id }, update: { $setOnInsert: row }, upsert: true },
    })),
    { ordered: false },
  ).catch((err: unknown) => {
    // Two first requests of one scope race to seed: the loser's duplicate key means it is done.
    if (!isDuplicateKey(err)) throw err;
  });
}

export const insertType = async (m: StoreModels, row: Omit<QuestionTypeRow, 'createdAt' | 'updatedAt'>) =>
  (await m.QuestionTypeDefinition.create(row)).toObject() as QuestionTypeRow;

export const updateType = (m: StoreModels, id: string, set: Partial<QuestionTypeRow>) =>
  m.QuestionTypeDefinition.findByIdAndUpdate(id, { $set: set }, { new: true }).lean<QuestionTypeRow>().exec();

export const deleteType = (m: StoreModels, id: string) => m.QuestionTypeDefinition.deleteOne({ _id: id }).exec();

/**
 * Upserts by `_id` within the row's organization: the filter names the row's `organizationId`, so a
 * row another organization holds is never matched (its insert fails on the duplicate `_id` instead,
 * and the caller reports the conflict). Ids in `repair` are matched by `_id` alone: the caller
 * established that the row belongs to the writer's organization (its question is the writer's).
 */
export async function upsertOwned<T extends { _id: string; organizationId: string | null }>(
  model: Model<T>,
  rows: Array<Partial<T> & { _id: string; organizationId: string | null }>,
  repair: ReadonlySet<string> = new Set(),
): Promise<number> {
  if (rows.length === 0) return 0;
  const ops = rows.map(({ _id, ...set }) => ({
    updateOne: {
      filter: repair.has(_id) ? { _id } : { _id, organizationId: set.organizationId },
      update: { $set: set },
      upsert: true,
    },
  }));
  const res = await model.bulkWrite(ops as never, { ordered: false });
  return res.upsertedCount + res.matchedCount;
}

/** `_id` -> `organizationId` of the rows that exist; no ids, no query. */
export async function ownersOf<T extends { _id: string; organizationId: string | null }>(
  model: Model<T>,
  ids: string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await model
    .find({ _id: { $in: ids } } as never, { organizationId: 1 })
    .lean<Array<{ _id: string; organizationId: string | null }>>()
    .exec();
  return new Map(rows.map((r) => [r._id, r.organizationId ?? null]));
}

/** Question id -> organization, for every stored row (live, archived, removed or still hidden). */
export async function questionOrganizations(m: StoreModels, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await m.Question.collection
    .find({ _id: { $in: ids } } as never, { projection: { organizationId: 1 } })
    .toArray();
  return new Map(rows.map((r) => [String(r._id), String(r.organizationId)]));
}

/** Rows by `_id` as a map; no ids, no query. */
export async function byIds<T extends { _id: string }>(model: Model<T>, ids: string[]): Promise<Map<string, T>> {
  if (ids.length === 0) return new Map();
  const rows = await model
    .find({ _id: { $in: ids } } as never)
    .lean<T[]>()
    .exec();
  return new Map(rows.map((r) => [r._id, r]));
}

export async function usedQuestionIds(m: StoreModels, ids: string[]): Promise<string[]> {
  const rows = await m.UsageCount.find(
    { _id: { $in: ids }, $or: [{ examItems: { $gt: 0 } }, { attemptItems: { $gt: 0 } }, { answers: { $gt: 0 } }] },
    { _id: 1 },
  )
    .lean<Array<{ _id: string }>>()
    .exec();
  return rows.map((r) => r._id);
}

const CLONE_FIELD = 'sourceMetadataJson.clonedFromQuestionId';

export async function clonedQuestionIds(m: StoreModels, organizationId: string | null, ids: string[]) {
  const rows = await m.Question.find(
    { organizationId, removedAt: null, [CLONE_FIELD]: { $in: ids }, _id: { $nin: ids } },
    { [CLONE_FIELD]: 1 },
  )
    .lean<Array<{ sourceMetadataJson?: { clonedFromQuestionId?: string } }>>()
    .exec();
  return rows.map((r) => r.sourceMetadataJson?.clonedFromQuestionId).filter((id): id is string => !!id);
}
