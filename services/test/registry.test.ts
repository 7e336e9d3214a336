// services/registry.ts is the one list of services: it must agree with what it stands for. The
// chart's values (charts/edu-platform/values.yaml) hold an entry for every registry service at its
// chartKey, with the registry's port and database, and nothing under `services:` the registry lacks;
// every main module the CLI would import exists; make dev's processes and ports do not collide; the
// bash printer says what the TypeScript says.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';
import type { ObjectSchema } from 'joi';
import { analyticsConfigSchema } from '../analytics/src/config.js';
import { attemptConfigSchema } from '../attempt/src/config.js';
import { authConfigSchema } from '../auth/src/config.js';
import { documentImportConfigSchema } from '../document-import/src/config.js';
import { gatewayConfigSchema } from '../gateway/src/config.js';
import { notificationConfigSchema } from '../notification/src/config.js';
import { peerPortsSchema } from '../peers/src/config.js';
import { questionBankConfigSchema } from '../question-bank/src/config.js';
import { userConfigSchema } from '../user/src/config.js';
import { COMMANDS, SERVICES, devProcesses, peerVariables, portOf, printLines, serviceNamed } from '../registry.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const values = parse(readFileSync(path.join(repo, 'charts', 'edu-platform', 'values.yaml'), 'utf8')) as Record<
  string,
  unknown
>;

/** The values entry at a dotted path, or undefined. */
function valuesAt(dotted: string): Record<string, unknown> | undefined {
  let at: unknown = values;
  for (const key of dotted.split('.')) at = (at as Record<string, unknown> | undefined)?.[key];
  return at as Record<string, unknown> | undefined;
}

describe('services/registry.ts', () => {
  it("has an entry in the chart's values for every service, with the registry's port and database", () => {
    for (const s of SERVICES) {
      const entry = valuesAt(s.chartKey);
      expect(entry, `${s.chartKey} in values.yaml`).to.be.an('object');
      expect(entry?.port, `${s.chartKey}.port`).to.equal(s.port);
      expect(entry?.database, `${s.chartKey}.database`).to.equal(s.database);
    }
  });

  it("lists every service the chart's values deploy under services:", () => {
    const inChart = Object.keys(values.services as Record<string, unknown>).map((k) => `services.${k}`);
    expect(SERVICES.map((s) => s.chartKey)).to.include.members(inChart);
  });

  it('services/cli.ts starts every service and command, each with the registry main', () => {
    const cli = readFileSync(path.join(repo, 'services', 'cli.ts'), 'utf8');
    const table = [...cli.matchAll(/^ {2}'?([\w-]+)'?: \(\) => import\('([^']+)'\),$/gm)].map((m): [string, string] => [
      m[1] ?? '',
      m[2] ?? '',
    ]);
    const registry = [...SERVICES, ...COMMANDS].map((e): [string, string] => [e.name, e.main]);
    expect(new Map(table)).to.deep.equal(new Map(registry));
  });

  it('names main modules that exist, one name per service or command', () => {
    const names = [...SERVICES, ...COMMANDS].map((e) => e.name);
    expect(new Set(names).size, names.join(', ')).to.equal(names.length);
    for (const e of [...SERVICES, ...COMMANDS]) {
      const source = path.join(repo, 'services', e.main.replace(/\.js$/, '.ts'));
      expect(existsSync(source), `${e.name}: ${source}`).to.equal(true);
    }
    for (const s of SERVICES) {
      const main = path.join(repo, 'services', s.main);
      expect(main.startsWith(path.join(repo, s.folder, 'src')), `${s.main} in ${s.folder}`).to.equal(true);
    }
  });

  it("gives make dev's processes distinct names and ports, moved together by the base", () => {
    const listeners = devProcesses().flatMap((p) => p.listeners);
    expect(new Set(listeners.map((l) => l.port)).size).to.equal(listeners.length);
    expect(new Set(devProcesses().map((p) => p.name)).size).to.equal(devProcesses().length);
    const moved = devProcesses(20000).flatMap((p) => p.listeners);
    expect(moved.map((l) => l.port - 16000)).to.deep.equal(listeners.map((l) => l.port));
  });

  it("is where the gateway's development upstreams point", () => {
    const { value } = gatewayConfigSchema.validate({ NODE_ENV: 'development' });
    const config = value as Record<string, unknown>;
    expect(config.GATEWAY_AUTH_URL).to.equal(`http://127.0.0.1:${serviceNamed('auth').port}`);
    expect(config.GATEWAY_PARENT_ALERTS_URL).to.equal(`http://127.0.0.1:${serviceNamed('notification').port}`);
    expect(config.GATEWAY_DOCUMENT_IMPORT_URL).to.equal(`http://127.0.0.1:${serviceNamed('document-import').port}`);
  });

  it("is where every service's config and the peers take their default ports", () => {
    const configs: Record<string, ObjectSchema> = {
      auth: authConfigSchema,
      user: userConfigSchema,
      analytics: analyticsConfigSchema,
      notification: notificationConfigSchema,
      'question-bank': questionBankConfigSchema,
      attempt: attemptConfigSchema,
      'document-import': documentImportConfigSchema,
      gateway: gatewayConfigSchema,
    };
    expect(Object.keys(configs)).to.have.members(SERVICES.map((s) => s.name));
    for (const [name, schema] of Object.entries(configs))
      expect(schema.extract('PORT').validate(undefined).value, name).to.equal(serviceNamed(name).port);
    const peers = devProcesses().find((p) => p.name === 'peers')?.listeners ?? [];
    expect(peerPortsSchema.validate({}).value).to.deep.equal(Object.fromEntries(peers.map((l) => [l.env, l.port])));
    expect(() => portOf('no-such-thing')).to.throw(/no service or listener named/);
  });

  it('starts the peers beside the fuzzed document-import, each listener reached by its DEV_URLS variable', () => {
    expect(serviceNamed('document-import').fuzzWith).to.deep.equal(['peers']);
    expect(peerVariables('peers')).to.deep.equal([
      'DOCUMENT_SERVICE_PORT=DOCUMENT_SERVICE_URL',
      'EXAM_SERVICE_PORT=EXAM_SERVICE_URL',
    ]);
    for (const s of SERVICES)
      for (const c of s.fuzzWith) expect(() => peerVariables(c), `${s.name}: ${c}`).not.to.throw();
    expect(() => peerVariables('no-such-command')).to.throw(/no command named/);
  });

  it('prints for bash what it holds (scripts/lib/registry.sh)', () => {
    for (const what of ['names', 'fuzz', 'fuzz-with', 'dev', 'dev-env']) {
      const out = execFileSync('bash', ['-c', `source scripts/lib/registry.sh && registry_print ${what}`], {
        cwd: repo,
        encoding: 'utf8',
      });
      expect(out.trimEnd().split('\n'), what).to.deep.equal(printLines(what));
    }
  });
});
