// kube-score, as a cluster admin's review runs it, over what a production install creates: the
// chart rendered with every component on (ci/external-values.yaml) and the worker Deployment the
// operator builds from that render (the chart's DocxImportJob and the operator's ConfigMap through
// the operator's own config schema and builders). The findings issue 21 named must stay gone: pods
// without liveness/readiness probes, Deployments without a PodDisruptionBudget where the chart
// promises one (services and gateway), and the worker's probes.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpYaml, loadAllYaml, type V1Container } from '@kubernetes/client-node';
import { helm } from './helpers/cluster.js';
import { goTool } from './helpers/go-tool.js';
import { loadConfig } from '../services/kit/src/core/index.js';
import type { DocxImportJob } from '../operator/src/api/docx-import-job.js';
import { operatorConfigSchema, workerPolicy } from '../operator/src/config.js';
import { SERVICES } from '../services/registry.js';
import { versionPin } from '../scripts/lib/versions.js';
import { desiredDeployment, workerTemplate } from '../operator/src/controller/worker-deployment.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chart = path.join(root, 'charts', 'edu-platform');
const KUBE_SCORE = versionPin('KUBE_SCORE_VERSION');
/** Every Deployment in rotation: the services and the gateway, by name. */
const IN_ROTATION = SERVICES.map((s) => s.name);

interface Manifest {
  kind?: string;
  metadata?: { name?: string };
  data?: Record<string, string>;
}

interface Check {
  check: { id: string; name: string };
  grade: number;
  skipped: boolean;
  comments?: Array<{ summary: string; path?: string }>;
}

interface Scored {
  object_name: string;
  type_meta: { kind: string };
  checks: Check[];
}

// kube-score grades: 1 critical, 5 warning, 7 almost OK, 10 OK.
const FAILING = (c: Check) => !c.skipped && c.grade < 7;

/** The worker Deployment the operator would apply for the rendered DocxImportJob, with the rendered operator config. */
function operatorWorkerDeployment(objects: Manifest[]): unknown {
  const job = objects.find((o) => o.kind === 'DocxImportJob') as unknown as DocxImportJob | undefined;
  const cm = objects.find((o) => o.kind === 'ConfigMap' && /-operator$/.test(o.metadata?.name ?? ''));
  if (!job || !cm?.data) throw new Error('the render has no DocxImportJob or operator ConfigMap');
  // Env the Deployment gives the operator outside its ConfigMap (Secret refs, the Downward API).
  const env = {
    ...cm.data,
    POD_NAMESPACE: 'edu',
    POD_NAME: 'edu-operator-0',
    KAFKA_SASL_USERNAME: 'u',
    KAFKA_SASL_PASSWORD: 'p',
    METRICS_TOKEN: 'a-metrics-token-of-some-length',
  };
  const policy = workerPolicy(loadConfig(operatorConfigSchema, env));
  const template = workerTemplate(job, policy);
  if (!template.ok)
    throw new Error(`the operator refuses the chart's own DocxImportJob: ${template.problems.join('; ')}`);
  return desiredDeployment(job, 1, template.template);
}

describe('kube-score over a production install (chart + the operator-built worker Deployment)', function () {
  this.timeout(600_000);
  let scored: Scored[] = [];
  let worker: unknown;

  before(async () => {
    const bin = goTool('kube-score', 'github.com/zegl/kube-score/cmd/kube-score', KUBE_SCORE);
    const values = path.join(chart, 'ci', 'external-values.yaml');
    // Two pods of everything in rotation: kube-score skips its PDB check below two replicas.
    const two = SERVICES.map((s) => `${s.chartKey}.replicas=2`).join(',');
    const rendered = await helm(['template', 'edu', chart, '-n', 'edu', '--skip-tests', '-f', values, '--set', two]);
    const objects = (loadAllYaml(rendered) as Manifest[]).filter((o) => o?.kind);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kube-score-'));
    const file = path.join(dir, 'install.yaml');
    worker = operatorWorkerDeployment(objects);
    writeFileSync(file, `${rendered}\n---\n${dumpYaml(worker)}`);
    const res = spawnSync(bin, ['score', '--output-format', 'json', file], { encoding: 'utf8' });
    // kube-score exits 1 when anything is critical; the JSON is on stdout either way.
    if (!res.stdout) throw new Error(`kube-score: ${res.stderr}`);
    scored = JSON.parse(res.stdout) as Scored[];
  });

  /** The objects of `kind` on which kube-score really ran check `id` (not skipped). */
  const ran = (id: string, kind: string) =>
    scored
      .filter((o) => o.type_meta.kind === kind && o.checks.some((c) => c.check.id === id && !c.skipped))
      .map((o) => o.object_name.split('/').pop() ?? '');

  const findings = (id: string, kind: string) =>
    scored
      .filter((o) => o.type_meta.kind === kind)
      .flatMap((o) =>
        o.checks
          .filter((c) => c.check.id === id && FAILING(c))
          .map((c) => `${o.object_name}: ${c.comments?.map((m) => m.summary).join('; ')}`),
      );

  it('scores the operator-built worker Deployment with the rest of the install', () => {
    const names = scored.filter((o) => o.type_meta.kind === 'Deployment').map((o) => o.object_name);
    expect(names.some((n) => n.endsWith('-workers'))).to.equal(true);
  });

  it('finds every pod in rotation with safe liveness and readiness probes', () => {
    expect(ran('pod-probes', 'Deployment')).to.include.members(IN_ROTATION.map((c) => `edu-edu-platform-${c}`));
    expect(findings('pod-probes', 'Deployment')).to.deep.equal([]);
  });

  it('finds the DOCX workers with probes of their own (kube-score checks a pod no Service targets only for identical probes)', () => {
    const workers = worker as { spec: { template: { spec: { containers: V1Container[] } } } };
    const c = workers.spec.template.spec.containers[0]!;
    expect(c.livenessProbe?.httpGet?.port).to.equal('health');
    expect(c.readinessProbe?.httpGet?.port).to.equal('health');
    expect(ran('pod-probes-identical', 'Deployment')).to.include('edu-edu-platform-docx-parser-workers');
    expect(findings('pod-probes-identical', 'Deployment')).to.deep.equal([]);
  });

  it('finds a PodDisruptionBudget for every Deployment the chart runs with more than one pod in rotation (services and gateway)', () => {
    const checked = ran('deployment-has-poddisruptionbudget', 'Deployment');
    expect(checked).to.include.members(IN_ROTATION.map((c) => `edu-edu-platform-${c}`));
    const deployments = findings('deployment-has-poddisruptionbudget', 'Deployment').filter(
      (f) => !f.includes('-workers:') && !f.includes('-operator:'),
    );
    expect(deployments).to.deep.equal([]);
  });
});
