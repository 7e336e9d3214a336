// `helm upgrade --reuse-values` from the previous chart version (git tag edu-platform-0.1.0) to this
// one, on the local API server. Helm then renders with the OLD chart's defaults under the release's
// values, so every key this version added is missing: the upgrade must still validate and render,
// and the result must equal a fresh render of this chart with the same values (the new keys take
// their values.yaml defaults). Pods never run here (no kubelet); the objects are what is checked.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllYaml } from '@kubernetes/client-node';
import { helm, kubectl } from './helpers/cluster.js';
import { installCrd } from './helpers/kube.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are untyped YAML */
type Obj = Record<string, any>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chart = path.join(root, 'charts', 'edu-platform');
const PREVIOUS = 'edu-platform-0.1.0';
const VALUES = [
  '--set',
  'mongodb.uri=mongodb://db.example.net:27017/?replicaSet=rs0',
  '--set',
  'kafka.brokers={kafka.example.net:9092}',
  '--set',
  'services.attempt.enabled=true,gateway.enabled=true,gateway.tables.auth=true',
];

/** The release's objects by kind/name, without Secrets (generated values) and hooks (helm test). */
function byName(manifest: string): Record<string, Obj> {
  const objs = (loadAllYaml(manifest) as Obj[]).filter(
    (o) => o?.kind && o.kind !== 'Secret' && !o.metadata?.annotations?.['helm.sh/hook'],
  );
  return Object.fromEntries(objs.map((o) => [`${o.kind}/${o.metadata.name}`, JSON.parse(JSON.stringify(o))]));
}

describe('charts/edu-platform: helm upgrade --reuse-values from the previous chart version', function () {
  this.timeout(600_000);
  const ns = `chart-upgrade-${randomBytes(3).toString('hex')}`;
  const release = 'edu';
  let previous = '';

  before(async function () {
    const tags = execFileSync('git', ['tag', '--list', PREVIOUS], { cwd: root, encoding: 'utf8' }).trim();
    if (!tags) {
      console.log(`skipped: git tag ${PREVIOUS} is missing (a shallow clone?); fetch tags to run this test`);
      this.skip();
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chart-previous-'));
    execFileSync('bash', ['-c', `git archive ${PREVIOUS} charts/edu-platform | tar -x -C "${dir}"`], { cwd: root });
    previous = path.join(dir, 'charts', 'edu-platform');
    await kubectl(['create', 'namespace', ns]);
    // The CRD is the cluster's, shared with the other cluster tests (which apply it server-side):
    // the current one is applied here and both charts install with --skip-crds (Helm never
    // upgrades CRDs anyway; the admin applies them, docs/operating.md).
    await installCrd();
  });

  after(async () => {
    if (previous) rmSync(path.dirname(path.dirname(previous)), { recursive: true, force: true });
    await helm(['uninstall', release, '-n', ns]).catch(() => undefined);
    await kubectl(['delete', 'namespace', ns, '--wait=false']).catch(() => undefined);
  });

  it('installs 0.1.0, upgrades with --reuse-values, and renders exactly what a fresh install of this version would', async () => {
    const old = await helm(['install', release, previous, '-n', ns, '--skip-crds', ...VALUES]);
    expect(old).to.match(/STATUS: deployed/);
    expect(await helm(['history', release, '-n', ns, '-o', 'json'])).to.contain('edu-platform-0.1.0');

    const upgraded = await helm(['upgrade', release, chart, '-n', ns, '--reuse-values']);
    expect(upgraded).to.match(/STATUS: deployed/);
    const history = JSON.parse(await helm(['history', release, '-n', ns, '-o', 'json'])) as Obj[];
    expect(history.map((h) => h.chart)).to.deep.equal(['edu-platform-0.1.0', 'edu-platform-0.2.0']);

    const got = byName(await helm(['get', 'manifest', release, '-n', ns]));
    // The API server serves ValidatingAdmissionPolicy, which the upgrade saw and helm template cannot.
    const vap = ['--api-versions', 'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy'];
    const fresh = byName(await helm(['template', release, chart, '-n', ns, ...vap, ...VALUES]));
    expect(Object.keys(got).sort()).to.deep.equal(Object.keys(fresh).sort());
    for (const key of Object.keys(fresh)) expect(got[key], key).to.deep.equal(fresh[key]);

    // The new keys took their defaults: topic creation on, broker-default replication, no prefix,
    // no TLS or SASL, the gateway's PDB, and the DocxImportJob's queue under its logical names.
    const config = got['ConfigMap/edu-edu-platform-attempt']!.data as Record<string, string>;
    expect(config).to.include({ KAFKA_TOPIC_CREATION: 'create', KAFKA_TOPIC_REPLICATION_FACTOR: '-1' });
    expect(config.KAFKA_TOPIC_PREFIX).to.equal('');
    expect(config).to.not.have.any.keys('KAFKA_SSL', 'KAFKA_SASL_MECHANISM', 'MONGODB_TLS', 'KAFKA_TOPICS_JSON');
    expect(got).to.have.property('PodDisruptionBudget/edu-edu-platform-gateway');
    expect(got['Deployment/edu-edu-platform-attempt']!.spec.replicas).to.equal(1);
    expect(got['DocxImportJob/edu-edu-platform-docx-parser']!.spec.queue).to.deep.equal({
      topic: 'docx-import.jobs.v1',
      consumerGroup: 'docx-parser',
    });
    // The objects exist on the server as the new version rendered them.
    const pdb = await kubectl(['get', 'pdb', 'edu-edu-platform-gateway', '-n', ns, '-o', 'name']);
    expect(pdb.trim()).to.equal('poddisruptionbudget.policy/edu-edu-platform-gateway');
  });

  it('upgrades with --reuse-values and a new value set on the command line', async () => {
    await helm(['upgrade', release, chart, '-n', ns, '--reuse-values', '--set', 'kafka.topicPrefix=edu-a.']);
    const cm = await kubectl(['get', 'configmap', 'edu-edu-platform-auth', '-n', ns, '-o', 'json']);
    expect((JSON.parse(cm) as Obj).data.KAFKA_TOPIC_PREFIX).to.equal('edu-a.');
    const dij = JSON.parse(
      await kubectl(['get', 'dij', 'edu-edu-platform-docx-parser', '-n', ns, '-o', 'json']),
    ) as Obj;
    expect(dij.spec.queue).to.deep.equal({ topic: 'edu-a.docx-import.jobs.v1', consumerGroup: 'edu-a.docx-parser' });
  });
});
