// End to end through a private Kafka (never the shared test broker, which this test stops):
// users registered in auth appear in the user service, also those registered while the broker
// was down, and nothing is lost or applied out of order.
import { expect } from 'chai';
import { waitFor } from '../../kit/test/support/kafka-helpers.js';
import { PrivateKafka } from '../../kit/test/support/private-kafka.js';
import { newUser, startAuth, type TestAuth } from '../../auth/test/support.js';
import { owner, startUser, type TestUser } from './support.js';

describe('auth → user through identity.user-changed.v1 (private Kafka, broker restart)', function () {
  this.timeout(300000);
  let kafka: PrivateKafka | undefined;
  let auth: TestAuth | undefined;
  let user: TestUser | undefined;

  before(async () => {
    kafka = await PrivateKafka.start();
    const env = { KAFKA_BROKERS: kafka.brokers.join(','), OUTBOX_PUBLISHER: 'kafka' };
    auth = await startAuth(import.meta.url, env);
    user = await startUser(import.meta.url, { KAFKA_BROKERS: kafka.brokers.join(',') });
  });
  after(async () => {
    await user?.close();
    await auth?.close();
    await kafka?.dispose();
  });

  async function register(label: string) {
    const res = await fetch(`${auth!.url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(newUser({ fullName: `Học Sinh ${label}`, role: 'TEACHER' })),
    });
    expect(res.status).to.equal(201);
    return ((await res.json()) as { data: { user: Record<string, unknown> } }).data.user;
  }

  const profileOf = async (id: unknown) => {
    const res = await user!.request.get(`/v1/users/${String(id)}/profile`).set(owner(String(id)));
    return res.status === 200 ? (res.body.data as Record<string, unknown>) : undefined;
  };

  it('every user registered before, during and after a broker outage appears with its public fields', async () => {
    const before = [await register('trước 1'), await register('trước 2')];
    await waitFor(
      'the first users in the user service',
      async () => (await profileOf(before[1]!.id)) !== undefined,
      60000,
    );
    const first = (await profileOf(before[0]!.id))!;
    expect(first).to.include({
      email: before[0]!.email,
      fullName: before[0]!.fullName,
      accountCode: before[0]!.accountCode,
      role: 'TEACHER',
      status: 'ACTIVE',
      updatedAt: before[0]!.updatedAt,
    });
    expect(first.memberships).to.deep.equal(before[0]!.memberships);

    await kafka!.stop();
    // Registration does not need the broker: the events wait in auth's outbox.
    const during = [await register('trong 1'), await register('trong 2'), await register('trong 3')];
    await kafka!.restart();
    const after = [await register('sau 1')];

    const all = [...before, ...during, ...after];
    // A long bound: the relay's and the consumer's backoff grew while the broker was down.
    await waitFor(
      'every registered user in the user service',
      async () => (await Promise.all(all.map((u) => profileOf(u.id)))).every((p) => p !== undefined),
      180000,
    );
    for (const u of all) expect((await profileOf(u.id))!).to.include({ email: u.email, fullName: u.fullName });
    const rows = await user!.db.conn.collection('profiles').find({}).toArray();
    expect(rows).to.have.length(all.length);
    expect(JSON.stringify(rows)).not.to.match(/passwordHash|\$2[aby]\$|refreshToken|tokenHash/);
    const processed = await user!.db.conn.collection('processed_events').countDocuments({ consumer: 'user' });
    expect(processed).to.equal(all.length);
  });
});
