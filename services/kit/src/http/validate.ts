import type { NextFunction, Request, Response } from 'express';
import type Joi from 'joi';
import { AppError, type FieldError } from '../core/index.js';
import { applySpellings, spellingsFor } from './tolerant.js';

export interface RequestSchemas {
  params?: Joi.Schema;
  query?: Joi.Schema;
  body?: Joi.Schema;
}

export interface ValidatedInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** What `validate()` accepted: converted, defaulted, unknown keys refused (dropped by a `tolerant()` schema). */
    valid?: ValidatedInput;
  }
}

const PARTS = ['params', 'query', 'body'] as const;

/**
 * Validates params, query and body with joi (all errors at once) and stores the converted values
 * on `req.valid`; any failure is one 400 VALIDATION_ERROR whose details name every field.
 * A route with a body schema answers a multipart body with 415 UNSUPPORTED_MEDIA_TYPE, unless
 * `upload()` ran before it (then the body schema validates the form's text fields).
 */
export function validate(schemas: RequestSchemas) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (schemas.body && req.file === undefined && req.is('multipart/form-data')) {
      next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json'));
      return;
    }
    const valid: ValidatedInput = { params: {}, query: {}, body: {} };
    const details: FieldError[] = [];
    for (const part of PARTS) {
      const schema = schemas[part];
      if (!schema) continue;
      // A tolerant() schema's aliases are copied to their paths first; a disagreeing pair is a 400.
      const spelled = applySpellings((req[part] as unknown) ?? {}, spellingsFor(schema));
      details.push(...spelled.conflicts);
      const { value, error } = schema.validate(spelled.value, { abortEarly: false, convert: true });
      if (error) details.push(...error.details.map((d) => toFieldError(part, d)));
      else valid[part] = value as Record<string, unknown>;
    }
    if (details.length > 0) {
      next(new AppError('VALIDATION_ERROR', validationMessage(details), { details }));
      return;
    }
    req.valid = valid;
    next();
  };
}

function toFieldError(part: string, d: Joi.ValidationErrorItem): FieldError {
  const path = d.path.length > 0 ? d.path.join('.') : part;
  return { path, message: d.message.replace(/"/g, '') };
}

function validationMessage(details: FieldError[]): string {
  const first = details[0];
  if (details.length === 1 && first) return `Validation failed: ${first.message}`;
  return `Validation failed: ${details.length} fields are invalid`;
}
