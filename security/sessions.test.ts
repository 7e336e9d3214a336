import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { call, until } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

// Issue 33 (7): a session that ends at auth ends everything opened with it at the gateway, the
// event streams included. The attacker holds a session that is logged out (or disabled, demoted,
// removed from its school) and keeps the stream it opened before.
describe('security: event streams end with their session (through the gateway)', function () {
  this.timeout(180000);
  let stack: Stack;
  before(async () => {
    stack = await startStack(import.meta.url);
  });
  after(() => stack?.close());

  const api = (path: string) => `${stack.gateway}${path}`;
  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function register(role: string, address: string) {
    const email = `u-${randomUUID()}@example.com`;
    const res = await call(api('/api/auth/register'), {
      method: 'POST',
      headers: from(address),
      json: { email, password: 'Correct-Horse-9', fullName: 'Nguyễn Văn Phiên', role },
    });
    return { res, email, data: res.body.data as { accessToken: string; refreshToken: string } };
  }

  it('an event stream opened before logout ends with the session; a stream of another session does not (issue 33, 7)', async () => {
    const { data, email } = await register('TEACHER', '192.0.2.40');
    const second = await call(api('/api/auth/login'), {
      method: 'POST',
      headers: from('192.0.2.41'),
      json: {
        email,
        password: 'Correct-Horse-9',
      },
    });
    expect(second.status).to.equal(200);
    const watch = async (token: string) => {
      const ctl = new AbortController();
      const res = await fetch(api('/api/exam-import/algorithm-jobs/events'), {
        headers: bearer(token),
        signal: ctl.signal,
      });
      let text = '';
      let ended = false;
      const decoder = new TextDecoder();
      void (async () => {
        try {
          for await (const chunk of res.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
          ended = true;
        } catch {
          // aborted by the test
        }
      })();
      return { status: res.status, text: () => text, ended: () => ended, close: () => ctl.abort() };
    };
    const loggedOut = await watch(data.accessToken);
    const other = await watch((second.body.data as { accessToken: string }).accessToken);
    try {
      expect([loggedOut.status, other.status]).to.deep.equal([200, 200]);
      const out = await call(api('/api/auth/logout'), { method: 'POST', json: { refreshToken: data.refreshToken } });
      expect(out.status).to.equal(200);
      await until("the logged-out session's stream ends", async () => loggedOut.ended());
      expect(loggedOut.text()).to.contain('event: session-ended\ndata: {"reason":"revoked"}');
      expect(other.ended()).to.equal(false);
      const again = await call(api('/api/exam-import/algorithm-jobs/events'), { headers: bearer(data.accessToken) });
      expect(again.status).to.equal(401);
    } finally {
      loggedOut.close();
      other.close();
    }
  });
});
