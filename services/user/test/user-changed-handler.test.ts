// The identity.user-changed.v1 handler on its own (the Kafka path is user-events.kafka.test.ts):
// the same rules as the HTTP snapshot, newer wins, and what can never apply is poison (DLQ at once).
import { expect } from 'chai';
import { PoisonMessageError, buildEvent, type ReceivedMessage } from '../../kit/src/bus/index.js';
import { userChangedHandler } from '../src/events.js';
import { seed, snapshot, startUser, type TestUser } from './support.js';

describe('user: identity.user-changed.v1 handler', () => {
  let svc: TestUser;
  before(async () => (svc = await startUser(import.meta.url)));
  after(() => svc.close());
  beforeEach(() => svc.clearCollections());

  const message = {} as ReceivedMessage;
  const handle = (userId: string, user: Record<string, unknown>) =>
    userChangedHandler(svc.built.deps)(
      buildEvent(
        {
          source: 'auth',
          type: 'identity.user-changed.v1',
          subject: userId,
          data: { userId, change: 'UPDATED', user: { id: userId, ...user } },
        },
        new Date(),
      ),
      message,
    );
  const row = (id: string) => svc.db.conn.collection('profiles').findOne({ _id: id as never });

  it('upserts the snapshot, drops a password hash sent inside it, and ignores an older event', async () => {
    await handle('u-1', snapshot({ fullName: 'Mới Nhất', passwordHash: 'x', updatedAt: '2026-05-02T00:00:00.000Z' }));
    await handle('u-1', snapshot({ fullName: 'Cũ Hơn', updatedAt: '2026-05-01T00:00:00.000Z' }));
    const stored = await row('u-1');
    expect(stored).to.include({ fullName: 'Mới Nhất' });
    expect(stored).not.to.have.property('passwordHash');
  });

  it('reads the user id spelled userId inside the snapshot too, and refuses one that disagrees', async () => {
    const { id: _id, ...rest } = { id: '', ...snapshot() };
    const event = (user: Record<string, unknown>) =>
      userChangedHandler(svc.built.deps)(
        buildEvent(
          {
            source: 'auth',
            type: 'identity.user-changed.v1',
            subject: 'u-3',
            data: { userId: 'u-3', change: 'UPDATED', user },
          },
          new Date(),
        ),
        message,
      );
    expect(await event({ ...rest, id: 'u-3', userId: 'u-4' }).catch((e: unknown) => e)).to.be.instanceOf(
      PoisonMessageError,
    );
    expect(await event({ ...rest, userId: 'u-4' }).catch((e: unknown) => e)).to.be.instanceOf(PoisonMessageError);
    expect(await row('u-3')).to.equal(null);
    await event({ ...rest, userId: 'u-3' });
    expect(await row('u-3')).to.include({ fullName: 'Nguyễn Văn An' });
  });

  it('throws PoisonMessageError for invalid data, a mismatched id and an e-mail another profile holds', async () => {
    await seed(svc, 'a', { email: 'a@x.vn' });
    const bad = [
      handle('u-2', snapshot({ email: 'nope' })),
      handle('u-2', { ...snapshot(), id: 'someone-else' }),
      handle('u-2', snapshot({ email: 'a@x.vn' })),
    ];
    for (const p of bad) expect(await p.catch((e: unknown) => e)).to.be.instanceOf(PoisonMessageError);
    expect(await row('u-2')).to.equal(null);
  });
});
