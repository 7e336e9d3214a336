import { expect } from 'chai';
import { compileTables, dropParams, isApiPath, TABLE_NAMES, TABLES, type TableName } from '../src/tables.js';

const all = compileTables(new Set(TABLE_NAMES));

describe('gateway: route tables (pure)', () => {
  it('maps every public auth path to its /v1 route', () => {
    for (const [method, path, target] of [
      ['POST', '/api/auth/register', '/v1/auth/register'],
      ['POST', '/api/auth/login', '/v1/auth/login'],
      ['POST', '/api/auth/refresh', '/v1/auth/refresh'],
      ['POST', '/api/auth/logout', '/v1/auth/logout'],
      ['GET', '/api/auth/me', '/v1/auth/me'],
    ] as const) {
      const m = all.match(method, path);
      expect(m?.table.name, path).to.equal('auth');
      expect(m?.upstreamPath).to.equal(target);
    }
  });

  it('binds parameters and keeps the query byte for byte', () => {
    expect(all.match('GET', '/api/imports/j-1/status?x=%C3%A9&y=2')?.upstreamPath).to.equal(
      '/v1/import/docx/jobs/j-1/status?x=%C3%A9&y=2',
    );
    expect(all.match('GET', '/api/exam-import/docx-fast-jobs/j1/temp-draft/assets/a:b/content')?.upstreamPath).to.equal(
      '/v1/import/docx/docx-fast-jobs/j1/temp-draft/assets/a:b/content',
    );
    expect(all.match('GET', '/api/exam-import/algorithm-jobs/events')?.upstreamPath).to.equal(
      '/v1/import/docx/jobs/events',
    );
  });

  it('takes fixed paths before parameters: preferences is not a notification id', () => {
    expect(all.match('GET', '/api/notifications/preferences')?.upstreamPath).to.equal('/v1/notifications/preferences');
    expect(all.match('PATCH', '/api/alerts/preferences')?.upstreamPath).to.equal('/v1/notifications/preferences');
    expect(all.match('GET', '/api/notifications/n1')?.upstreamPath).to.equal('/v1/notifications/n1');
  });

  it('a path spelled out in full is never an id, and its methods are its own', () => {
    expect(all.match('GET', '/api/notifications/read-all')).to.equal(undefined);
    expect(all.methods('/api/notifications/read-all/')).to.deep.equal(['POST']);
    expect(all.methods('/api/notifications/n1')).to.deep.equal(['GET', 'HEAD']);
    expect(all.methods('/api/alerts/preferences?x=1')).to.deep.equal(['GET', 'PATCH', 'HEAD']);
    expect(all.methods('/api/nothing/here')).to.deep.equal([]);
    // Its table switched off, a fixed path still is not an id of another table's route.
    const onlyNotifications = compileTables(new Set<TableName>(['notifications']));
    expect(onlyNotifications.match('GET', '/api/notifications/read-all')).to.equal(undefined);
  });

  it('leaves other methods, deeper paths, odd segments and case variants unmapped', () => {
    expect(all.match('GET', '/api/auth/login')).to.equal(undefined);
    expect(all.match('DELETE', '/api/notifications/n1')).to.equal(undefined);
    expect(all.match('GET', '/api/analytics/exams/e1/summary')).to.equal(undefined);
    expect(all.match('GET', '/api/imports/../status')).to.equal(undefined);
    expect(all.match('GET', '/api/imports/%2e%2e/status')).to.equal(undefined);
    expect(all.match('GET', '/api/imports/a%2Fb/status')).to.equal(undefined);
    expect(all.match('GET', '/API/auth/me')).to.equal(undefined);
  });

  it('ignores one trailing slash and answers HEAD from a GET route', () => {
    expect(all.match('GET', '/api/auth/me/')?.upstreamPath).to.equal('/v1/auth/me');
    expect(all.match('HEAD', '/api/analytics/results?page=2')?.upstreamPath).to.equal('/v1/analytics/results?page=2');
  });

  it('a switched-off table matches nothing, the others still do', () => {
    const some = compileTables(new Set<TableName>(['auth']));
    expect(some.match('GET', '/api/analytics/results')).to.equal(undefined);
    expect(some.match('GET', '/api/auth/me')?.table.name).to.equal('auth');
    expect(compileTables(new Set()).match('GET', '/api/auth/me')).to.equal(undefined);
  });

  it('the inbox list drops userId and organizationId in any spelling, nothing else', () => {
    const m = all.match(
      'GET',
      '/api/notifications?userId=u2&page=2&user%49d=u3&organizationId=o&userId[]=x&filter=unread',
    );
    expect(m?.upstreamPath).to.equal('/v1/notifications?page=2&filter=unread');
    expect(dropParams('a=1&%ZZ=2', ['userId'])).to.equal('a=1&%ZZ=2');
  });

  it('every route targets a /v1 path the owning service declares', async () => {
    const { readFileSync } = await import('node:fs');
    for (const t of TABLES) {
      const doc = JSON.parse(readFileSync(`services/${t.service}/openapi.json`, 'utf8')) as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const r of t.routes) {
        const path = r.target.replace(
          /:([A-Za-z]+)/g,
          (_m, n: string) =>
            `{${n === 'assetId' ? 'tempAssetId' : n === 'id' && t.name !== 'documentImport' ? 'notificationId' : n}}`,
        );
        expect(doc.paths[path]?.[r.method.toLowerCase()], `${t.name} ${r.method} ${path}`).to.not.equal(undefined);
      }
    }
  });

  it('knows its prefix', () => {
    expect(isApiPath('/api')).to.equal(true);
    expect(isApiPath('/api/x')).to.equal(true);
    expect(isApiPath('/api?x')).to.equal(true);
    expect(isApiPath('/apix')).to.equal(false);
    expect(isApiPath('/healthz')).to.equal(false);
  });
});
