// Fan-out: one content to many already-resolved recipients, through their preferences. A
// recipient who muted until a time still ahead, or switched the type off, gets nothing; rows
// already created are never touched by a preference.
import type { NotificationRow } from '../store/models.js';
import { findPreferences, insertRows } from '../store/notification-store.js';
import type { NotificationDeps } from './deps.js';
import { sendDecision, uniqueIds } from './rules.js';

export interface NotificationContent {
  type: string;
  title: string;
  body?: string;
  data?: Record<string, unknown>;
  organizationId?: string | null;
}

export interface FanOutResult {
  requested: number;
  created: number;
  /** Rows that already existed for this source and recipient (a replay). */
  existing: number;
  muted: number;
  typeDisabled: number;
}

export interface RowSource {
  /** `(sourceKey, userId)` is unique: the same source never reaches a recipient twice. */
  sourceKey: string;
  createdBy: string | null;
}

export function buildRow(deps: NotificationDeps, userId: string, content: NotificationContent, source: RowSource) {
  const now = deps.clock();
  const row: NotificationRow = {
    _id: deps.newId(),
    userId,
    organizationId: content.organizationId ?? null,
    type: content.type,
    title: content.title,
    body: content.body ?? '',
    data: JSON.stringify(content.data ?? {}),
    isRead: false,
    readAt: null,
    sourceKey: source.sourceKey,
    createdBy: source.createdBy,
    createdAt: now,
    updatedAt: now,
  };
  return row;
}

/** Splits recipients by their preferences for this type, now. */
export async function sendable(deps: NotificationDeps, recipients: string[], type: string) {
  const prefs = new Map((await findPreferences(deps.models, recipients)).map((p) => [p._id, p]));
  const now = deps.clock();
  const out = { send: [] as string[], muted: 0, typeDisabled: 0 };
  for (const userId of recipients) {
    const decision = sendDecision(prefs.get(userId), type, now);
    if (decision === 'SEND') out.send.push(userId);
    else if (decision === 'MUTED') out.muted += 1;
    else out.typeDisabled += 1;
  }
  return out;
}

export async function fanOut(
  deps: NotificationDeps,
  recipientIds: readonly string[],
  content: NotificationContent,
  source: RowSource,
): Promise<FanOutResult> {
  const recipients = uniqueIds(recipientIds);
  const split = await sendable(deps, recipients, content.type);
  const rows = split.send.map((userId) => buildRow(deps, userId, content, source));
  const written = await insertRows(deps.models, rows);
  return { requested: recipients.length, ...written, muted: split.muted, typeDisabled: split.typeDisabled };
}

/** Several contents, each to one recipient (the event route); keys are `<prefix>:<index>`. */
export async function fanOutEach(
  deps: NotificationDeps,
  items: ReadonlyArray<NotificationContent & { userId: string }>,
  source: RowSource,
): Promise<FanOutResult> {
  const total: FanOutResult = { requested: items.length, created: 0, existing: 0, muted: 0, typeDisabled: 0 };
  const rows: NotificationRow[] = [];
  const prefs = new Map(
    (await findPreferences(deps.models, uniqueIds(items.map((i) => i.userId)))).map((p) => [p._id, p]),
  );
  const now = deps.clock();
  items.forEach((item, i) => {
    const decision = sendDecision(prefs.get(item.userId), item.type, now);
    if (decision === 'MUTED') total.muted += 1;
    else if (decision === 'TYPE_DISABLED') total.typeDisabled += 1;
    else rows.push(buildRow(deps, item.userId, item, { ...source, sourceKey: `${source.sourceKey}:${i}` }));
  });
  const written = await insertRows(deps.models, rows);
  return { ...total, ...written };
}
