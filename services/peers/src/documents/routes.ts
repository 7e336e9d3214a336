import { Router, type NextFunction, type Request, type Response } from 'express';
import Joi from 'joi';
import { AppError, ok, readActor, validate } from '../../../kit/src/index.js';
import { streamObject } from './bytes-routes.js';
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

const presignBody = Joi.object({
  fileName: Joi.string().trim().min(1).max(255).required(),
  contentType: contentType.default('application/octet-stream'),
});
const assetBody = Joi.object({
  key: storageKey,
  fileName: Joi.string().trim().min(1).max(255),
  contentType,
});
const keyQuery = Joi.object({ key: storageKey });
const assetParams = Joi.object({ id: Joi.string().uuid().required() });

function wrap(handler: (req: Request, res: Response) => Promise<void>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    handler(req, res).catch(next);
  };
}

function requireOrganization(req: Request): { organizationId: string; userId?: string } {
  const actor = readActor(req);
  if (!actor.organizationId) throw new AppError('VALIDATION_ERROR', 'X-Organization-Id header is required');
  return { organizationId: actor.organizationId, userId: actor.userId };
}

function publicBase(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

export function documentRoutes(deps: DocumentDeps): Router {
  const r = Router();
  r.get(
    '/v1/storage/objects/content',
    validate({ query: keyQuery }),
    wrap(async (req, res) => {
      const row = await findObject(deps, req.valid!.query.key as string);
      await streamObject(deps, res, row, 'private, no-store');
    }),
  );
  r.post(
    '/v1/storage/presigned-upload',
    validate({ body: presignBody }),
    wrap(async (req, res) => {
      const { organizationId } = requireOrganization(req);
      const body = req.valid!.body as { fileName: string; contentType: string };
      const ticket = await createTicket(deps, { ...body, organizationId });
      const uploadUrl = `${publicBase(req)}/v1/storage/uploads/${ticket.token}`;
      const headers = { 'Content-Type': ticket.contentType };
      ok(res, { key: ticket.key, uploadUrl, method: 'PUT', headers, expiresAt: ticket.expiresAt }, 'OK', 201);
    }),
  );
  r.post(
    '/v1/storage/media-assets',
    validate({ body: assetBody }),
    wrap(async (req, res) => {
      const { organizationId, userId } = requireOrganization(req);
      const body = req.valid!.body as { key: string; fileName?: string; contentType?: string };
      const row = await registerAsset(deps, { ...body, organizationId, ownerId: userId });
      ok(res, assetView(row), 'OK', 201);
    }),
  );
  r.get(
    '/v1/storage/media-assets/:id',
    validate({ params: assetParams }),
    wrap(async (req, res) => {
      ok(
        res,
        assetView(await findAsset(deps, req.valid!.params.id as string, requireOrganization(req).organizationId)),
      );
    }),
  );
  r.get(
    '/api/storage/media-assets/:id/content',
    validate({ params: assetParams }),
    wrap(async (req, res) => {
      const asset = await findAsset(deps, req.valid!.params.id as string, readActor(req).organizationId);
      const object = await findObject(deps, asset.key);
      await streamObject(deps, res, { ...object, contentType: asset.contentType }, 'private, max-age=300');
    }),
  );
  return r;
}
