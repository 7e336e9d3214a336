import type { Request } from 'express';
import Joi from 'joi';
import { AppError, readActor } from '../../../kit/src/core/index.js';
import { ok, okResponse, ref, routes, type Route } from '../../../kit/src/http/index.js';
import { streamObject } from './bytes-routes.js';
import { STORAGE_ERRORS, bytesResponse, header } from './doc.js';
import {
  KEY_PATTERN,
  assetView,
  createTicket,
  findAsset,
  findObject,
  registerAsset,
  type DocumentDeps,
} from './store.js';

const contentType = Joi.string()
  .pattern(/^[\w.+-]+\/[\w.+-]+$/)
  .max(120);
const storageKey = Joi.string().pattern(KEY_PATTERN).required();

type PresignBody = { fileName: string; contentType: string };
type AssetBody = { key: string; fileName?: string; contentType?: string };

const presignBody = Joi.object<PresignBody, true>({
  fileName: Joi.string().trim().min(1).max(255).required(),
  contentType: contentType.default('application/octet-stream'),
});
const assetBody = Joi.object<AssetBody, true>({
  key: storageKey,
  fileName: Joi.string().trim().min(1).max(255),
  contentType,
});
const keyQuery = Joi.object<{ key: string }, true>({ key: storageKey });
const assetParams = Joi.object<{ id: string }, true>({ id: Joi.string().uuid().required() });

function requireOrganization(req: Request): { organizationId: string; userId?: string } {
  const actor = readActor(req);
  if (!actor.organizationId) throw new AppError('VALIDATION_ERROR', 'X-Organization-Id header is required');
  return { organizationId: actor.organizationId, userId: actor.userId };
}

function publicBase(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

const route = routes<DocumentDeps>();

const ORGANIZATION = header('X-Organization-Id', true);
const ASSET = ref('schemas', 'MediaAsset');

/** The document service's JSON routes, declared once (its byte-body routes are in bytes-routes.ts). */
export const documentRoutes: ReadonlyArray<Route<DocumentDeps>> = [
  route({
    method: 'get',
    path: '/v1/storage/objects/content',
    query: keyQuery,
    doc: {
      summary: "An object's bytes by storage key",
      responses: { 200: bytesResponse('the bytes with their content type'), ...STORAGE_ERRORS },
    },
    handle: async (req, res, deps) => {
      const row = await findObject(deps, req.valid.query.key);
      await streamObject(deps, res, row, 'private, no-store');
    },
  }),
  route({
    method: 'post',
    path: '/v1/storage/presigned-upload',
    body: presignBody,
    doc: {
      summary: 'An upload URL (single PUT of raw bytes, 15 minutes) and the key it stores under',
      parameters: [ORGANIZATION],
      responses: {
        201: okResponse('ticket', {
          type: 'object',
          properties: {
            key: { type: 'string' },
            uploadUrl: { type: 'string' },
            method: { const: 'PUT' },
            headers: { type: 'object' },
            expiresAt: { type: 'string', format: 'date-time' },
          },
        }),
        ...STORAGE_ERRORS,
      },
    },
    handle: async (req, res, deps) => {
      const { organizationId } = requireOrganization(req);
      const ticket = await createTicket(deps, { ...req.valid.body, organizationId });
      const uploadUrl = `${publicBase(req)}/v1/storage/uploads/${ticket.token}`;
      const headers = { 'Content-Type': ticket.contentType };
      ok(res, { key: ticket.key, uploadUrl, method: 'PUT', headers, expiresAt: ticket.expiresAt }, 'OK', 201);
    },
  }),
  route({
    method: 'post',
    path: '/v1/storage/media-assets',
    body: assetBody,
    doc: {
      summary: 'Register an uploaded object as a media asset owned by the organization (owner X-User-Id when present)',
      parameters: [ORGANIZATION, header('X-User-Id', false)],
      responses: { 201: okResponse('registered', ASSET), ...STORAGE_ERRORS },
    },
    handle: async (req, res, deps) => {
      const { organizationId, userId } = requireOrganization(req);
      const row = await registerAsset(deps, { ...req.valid.body, organizationId, ownerId: userId });
      ok(res, assetView(row), 'OK', 201);
    },
  }),
  route({
    method: 'get',
    path: '/v1/storage/media-assets/:id',
    params: assetParams,
    doc: {
      summary: 'Asset metadata (own organization only)',
      parameters: [ORGANIZATION],
      responses: { 200: okResponse('asset', ASSET), ...STORAGE_ERRORS },
    },
    handle: async (req, res, deps) => {
      ok(res, assetView(await findAsset(deps, req.valid.params.id, requireOrganization(req).organizationId)));
    },
  }),
  route({
    method: 'get',
    path: '/api/storage/media-assets/:id/content',
    params: assetParams,
    doc: {
      summary: "The asset's bytes with its content type; with X-Organization-Id, another organization's asset is 404",
      parameters: [header('X-Organization-Id')],
      responses: { 200: bytesResponse('bytes'), ...STORAGE_ERRORS },
    },
    handle: async (req, res, deps) => {
      const asset = await findAsset(deps, req.valid.params.id, readActor(req).organizationId);
      const object = await findObject(deps, asset.key);
      await streamObject(deps, res, { ...object, contentType: asset.contentType }, 'private, max-age=300');
    },
  }),
];
