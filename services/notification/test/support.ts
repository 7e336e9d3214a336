import { startTestService, type TestService } from '../../kit/test/support/harness.js';
import type { NotificationConfig } from '../src/config.js';
import { notificationService, type BuiltNotification } from '../src/service.js';

export type TestNotification = TestService<NotificationConfig, BuiltNotification>;

/** The real notification service as main.ts starts it; the Kafka consumer only when asked for. */
export function startNotification(file: string, env: Record<string, string> = {}, kafka = false) {
  return startTestService(notificationService, { file, env: { NOTIFICATION_CONSUMER: 'none', ...env }, kafka });
}

export interface Who {
  userId?: string;
  role?: string;
  organizationId?: string;
}

export const student = (userId = 's1'): Who => ({ userId, role: 'STUDENT' });
export const parent = (userId = 'p1'): Who => ({ userId, role: 'PARENT' });
/** The ADMIN of org-a (the role in X-Organization-Id), the organization `create` writes into by default. */
export const admin = (userId = 'a1', organizationId = 'org-a'): Who => ({ userId, role: 'ADMIN', organizationId });
export const service: Who = {};

export function headers(who: Who): Record<string, string> {
  const h: Record<string, string> = {};
  if (who.userId) h['X-Actor-Id'] = who.userId;
  if (who.role) h['X-Actor-Role'] = who.role;
  if (who.organizationId) h['X-Organization-Id'] = who.organizationId;
  return h;
}

export interface NotificationBody {
  id: string;
  userId: string;
  organizationId: string | null;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
}

/** Creates one notification as a peer service would; returns it. */
export async function create(
  svc: TestNotification,
  body: Record<string, unknown>,
  who: Who = service,
): Promise<NotificationBody> {
  const res = await svc.request
    .post('/v1/notifications')
    .set(headers(who))
    .send({ type: 'INFO', title: 'Xin chào', organizationId: 'org-a', ...body })
    .expect(201);
  return (res.body as { data: NotificationBody }).data;
}

/** An inbox page as `who` sees it. */
export async function inbox(svc: TestNotification, who: Who, query: Record<string, string> = {}) {
  const res = await svc.request.get('/v1/notifications').set(headers(who)).query(query).expect(200);
  return (
    res.body as {
      data: {
        items: NotificationBody[];
        meta: { total: number; page: number; limit: number; totalPages: number };
        unreadCount: number;
      };
    }
  ).data;
}

export const future = (ms = 3600_000) => new Date(Date.now() + ms).toISOString();
export const past = (ms = 3600_000) => new Date(Date.now() - ms).toISOString();
