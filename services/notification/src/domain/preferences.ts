import { AppError } from '../../../kit/src/core/index.js';
import type { NotificationDeps } from './deps.js';
import type { Caller } from './inbox.js';
import { findPreference, savePreference } from '../store/notification-store.js';

/** Types one user's map may name in all (each PATCH names at most 100). */
export const MAX_TYPES = 200;

export interface PreferenceView {
  userId: string;
  enabledTypes: Record<string, boolean>;
  mutedUntil: string | null;
  updatedAt: string | null;
}

export interface PreferencePatch {
  enabledTypes?: Record<string, boolean>;
  mutedUntil?: Date | null;
}

export async function getPreferences(deps: NotificationDeps, caller: Caller): Promise<PreferenceView> {
  const row = await findPreference(deps.models, caller.userId);
  return {
    userId: caller.userId,
    enabledTypes: row?.enabledTypes ?? {},
    mutedUntil: row?.mutedUntil ? row.mutedUntil.toISOString() : null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

/**
 * `enabledTypes` keys merge into the stored map (true re-allows a type, false blocks it);
 * `mutedUntil` replaces, and null clears the mute.
 */
export async function patchPreferences(
  deps: NotificationDeps,
  caller: Caller,
  patch: PreferencePatch,
): Promise<PreferenceView> {
  const row = await findPreference(deps.models, caller.userId);
  const mutedUntil = patch.mutedUntil === undefined ? (row?.mutedUntil ?? null) : patch.mutedUntil;
  const enabledTypes = { ...(row?.enabledTypes ?? {}), ...(patch.enabledTypes ?? {}) };
  if (Object.keys(enabledTypes).length > MAX_TYPES) {
    throw new AppError('VALIDATION_ERROR', `enabledTypes may name at most ${MAX_TYPES} types`, {
      details: [{ path: 'enabledTypes', message: `at most ${MAX_TYPES} types in all` }],
    });
  }
  await savePreference(deps.models, { _id: caller.userId, enabledTypes, mutedUntil, updatedAt: deps.clock() });
  return getPreferences(deps, caller);
}
