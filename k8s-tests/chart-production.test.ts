// The chart for production: every ci/ and examples/ values file, and the chart as a subchart of an
// umbrella chart with `global` values, rendered and checked with kubeconform (strict) against JSON
// schemas generated from the local API server's OpenAPI document and the chart's CRD; the Kafka and
// MongoDB security wiring into every pod that talks to them; the monitoring objects' shape, with
// every metric an alert or the dashboard uses exported by the code.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllYaml, loadYaml } from '@kubernetes/client-node';
import { helm, kubectl } from './helpers/cluster.js';
import { goTool } from './helpers/go-tool.js';
import { versionPin } from '../scripts/lib/versions.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests and schemas are untyped */
type Obj = Record<string, any>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chart = path.join(root, 'charts', 'edu-platform');
const KUBECONFORM = versionPin('KUBECONFORM_VERSION');
const valueFiles = [
  ...readdirSync(path.join(chart, 'ci')).map((f) => path.join(chart, 'ci', f)),
  ...readdirSync(path.join(chart, 'examples')).map((f) => path.join(chart, 'examples', f)),
];

const kubeconform = () => goTool('kubeconform', 'github.com/yannh/kubeconform/cmd/kubeconform', KUBECONFORM);

/** Strict per-kind JSON schemas (kubeconform's file names) from the API server's OpenAPI v2 and the chart's CRDs. */
async function writeSchemas(dir: string): Promise<void> {
  const spec = JSON.parse(await kubectl(['get', '--raw', '/openapi/v2'])) as Obj;
  const defs = spec.definitions as Record<string, Obj>;
  defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString'] = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
  defs['io.k8s.apimachinery.pkg.api.resource.Quantity'] = { oneOf: [{ type: 'string' }, { type: 'number' }] };
  for (const d of Object.values(defs))
    if (d.properties && d.additionalProperties === undefined) d.additionalProperties = false;
  const file = (kind: string, group: string, version: string) =>
    path.join(dir, `${kind.toLowerCase()}${group ? `-${group.split('.')[0]}` : ''}-${version}.json`);
  for (const [name, d] of Object.entries(defs)) {
    for (const gvk of (d['x-kubernetes-group-version-kind'] ?? []) as Obj[]) {
      writeFileSync(file(gvk.kind, gvk.group, gvk.version), JSON.stringify({ ...defs[name], definitions: defs }));
    }
  }
  for (const f of readdirSync(path.join(chart, 'crds')).filter((x) => x.endsWith('.yaml'))) {
    const crd = loadYaml(readFileSync(path.join(chart, 'crds', f), 'utf8')) as Obj;
    for (const v of crd.spec.versions as Obj[]) {
      writeFileSync(file(crd.spec.names.kind, crd.spec.group, v.name), JSON.stringify(v.schema.openAPIV3Schema));
    }
  }
}

/** Runs kubeconform -strict on a manifest; ServiceMonitor and PrometheusRule have no schema offline (their shape is checked below). */
function conform(bin: string, schemas: string, manifest: string): string {
  const args = ['-strict', '-summary', '-skip', 'ServiceMonitor,PrometheusRule', '-schema-location'];
  const res = spawnSync(bin, [...args, `${schemas}/{{ .ResourceKind }}{{ .KindSuffix }}.json`, '-'], {
    input: manifest,
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`kubeconform:\n${res.stdout}${res.stderr}`);
  return res.stdout;
}

const objects = (manifest: string): Obj[] => (loadAllYaml(manifest) as Obj[]).filter((o) => o?.kind);
const find = (objs: Obj[], kind: string, name: string): Obj => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`${kind}/${name} not rendered`);
  return o;
};

/** The chart with every component and store option on (ci/external-values.yaml), as objects. */
async function renderExternal(): Promise<Obj[]> {
  const values = valueFiles.find((f) => f.endsWith('external-values.yaml'))!;
  return objects(await helm(['template', 'edu', chart, '-n', 'edu', '-f', values]));
}

describe('charts/edu-platform for production: kubeconform, subchart, store security, monitoring', function () {
  this.timeout(600_000);
  let bin = '';
  let schemas = '';

  before(async () => {
    bin = kubeconform();
    schemas = mkdtempSync(path.join(os.tmpdir(), 'kubeconform-schemas-'));
    await writeSchemas(schemas);
  });

  it('renders every ci/ and examples/ values file, and kubeconform -strict finds every object valid', async () => {
    expect(valueFiles.map((f) => path.basename(f))).to.include.members([
      'all-values.yaml',
      'node-values.yaml',
      'external-values.yaml',
      'values-atlas-confluent.yaml',
      'values-strimzi-tls.yaml',
    ]);
    for (const f of valueFiles) {
      const manifest = await helm(['template', 'edu', chart, '-n', 'edu', '-f', f]);
      const summary = conform(bin, schemas, manifest);
      expect(summary, f).to.match(/Invalid: 0, Errors: 0/);
      expect(summary, `${f}: nothing left unchecked but the monitoring kinds`).to.match(/Valid: [1-9]/);
    }
  });

  it('refuses a render with no MongoDB or Kafka configured, naming what to set', async () => {
    const err = await helm(['template', 'edu', chart]).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(err).to.match(/no default database or broker host/);
    expect(err).to.match(/mongodb\.uri/);
    expect(err).to.match(/Kafka, which is mandatory/);
  });

  it('renders as a subchart of an umbrella chart with global values, and the result passes kubeconform', async () => {
    const umbrella = mkdtempSync(path.join(os.tmpdir(), 'umbrella-'));
    writeFileSync(
      path.join(umbrella, 'Chart.yaml'),
      `apiVersion: v2\nname: school-district\nversion: 1.0.0\ndependencies:\n  - name: edu-platform\n    version: 0.2.0\n    repository: file://${chart}\n`,
    );
    const values = {
      global: { imageRegistry: 'registry.example.net', storageClass: 'fast' },
      'edu-platform': {
        mongodb: { uri: 'mongodb://db.example.net:27017/?replicaSet=rs0' },
        kafka: { brokers: ['kafka.example.net:9092'], topicPrefix: 'district.' },
      },
    };
    writeFileSync(path.join(umbrella, 'values.yaml'), JSON.stringify(values));
    await helm(['dependency', 'update', umbrella]);
    const manifest = await helm(['template', 'district', umbrella, '-n', 'edu']);
    expect(conform(bin, schemas, manifest)).to.match(/Invalid: 0, Errors: 0/);
    const objs = objects(manifest);
    expect(find(objs, 'DocxImportJob', 'district-edu-platform-docx-parser').spec.queue.topic).to.equal(
      'district.docx-import.jobs.v1',
    );
  });

  it('mounts the Kafka and MongoDB TLS files and credentials into every pod that talks to them, and tells the operator for the workers', async () => {
    const objs = await renderExternal();
    const deployments = objs.filter((o) => o.kind === 'Deployment');
    for (const d of deployments) {
      const name = d.metadata.name as string;
      const pod = d.spec.template.spec;
      const c = pod.containers[0];
      const mounts = Object.fromEntries((c.volumeMounts as Obj[]).map((m) => [m.name, m]));
      const env = Object.fromEntries((c.env as Obj[]).map((e) => [e.name, e.valueFrom?.secretKeyRef]));
      const talksKafka = name !== 'edu-edu-platform-gateway';
      const talksMongo = talksKafka && name !== 'edu-edu-platform-operator';
      expect(Boolean(mounts['kafka-tls']), `${name} kafka-tls`).to.equal(talksKafka);
      expect(Boolean(mounts['mongodb-tls']), `${name} mongodb-tls`).to.equal(talksMongo);
      if (talksKafka) {
        expect(mounts['kafka-tls']).to.include({ mountPath: '/etc/edu-platform/kafka', readOnly: true });
        expect(env.KAFKA_SASL_PASSWORD, name).to.deep.equal({ name: 'kafka-credentials', key: 'password' });
        const cm = find(objs, 'ConfigMap', name).data;
        expect(cm, name).to.include({
          KAFKA_SSL: 'true',
          KAFKA_SSL_CA_FILE: '/etc/edu-platform/kafka/ca.crt',
          KAFKA_SASL_MECHANISM: 'scram-sha-512',
        });
        expect(cm, `${name}: credentials only through secretKeyRef`).to.not.have.any.keys(
          'KAFKA_SASL_USERNAME',
          'KAFKA_SASL_PASSWORD',
          'MONGODB_USERNAME',
          'MONGODB_PASSWORD',
        );
      }
      if (talksMongo)
        expect(env.MONGODB_PASSWORD, name).to.deep.equal({ name: 'mongodb-credentials', key: 'password' });
      expect(pod.priorityClassName, name).to.equal('edu-platform');
      expect(pod.topologySpreadConstraints[0].labelSelector.matchLabels['app.kubernetes.io/component'], name).to.be.a(
        'string',
      );
    }
    const operator = find(objs, 'ConfigMap', 'edu-edu-platform-operator').data;
    const files = (operator.WORKER_SECRET_FILES as string).split(',').map((e) => e.split(':'));
    expect(files.map(([, , p]) => p)).to.deep.equal([
      '/etc/edu-platform/kafka/ca.crt',
      '/etc/edu-platform/kafka/client.crt',
      '/etc/edu-platform/kafka/client.key',
      '/etc/edu-platform/mongodb/ca.crt',
      '/etc/edu-platform/mongodb/client.crt',
      '/etc/edu-platform/mongodb/client.key',
    ]);
    expect(operator.WORKER_SECRET_ENV).to.include('KAFKA_SASL_PASSWORD=kafka-credentials:password');
    expect(operator.WORKER_SECRET_ENV).to.include('PARSER_LICENSE=parser:license');
    const workers = find(objs, 'ConfigMap', 'edu-edu-platform-docx-parser-worker').data;
    expect(workers).to.include({
      KAFKA_SSL_CA_FILE: '/etc/edu-platform/kafka/ca.crt',
      MONGODB_TLS: 'true',
      KAFKA_TOPIC_CREATION: 'verify',
    });
    // The workers relay document-import's outbox into the release's topics: their bus prefixes too
    // (the worker takes the prefix off the job's physical names once).
    expect(workers.KAFKA_TOPIC_PREFIX).to.equal('edu-ci.');
    expect(find(objs, 'ConfigMap', 'edu-edu-platform-attempt').data).to.include({
      KAFKA_TOPIC_PREFIX: 'edu-ci.',
      KAFKA_TOPICS_JSON: '{"docx-import.jobs.v1":{"partitions":12}}',
      KAFKA_TOPIC_RETENTION_MS: '604800000',
    });
    expect(find(objs, 'Deployment', 'edu-edu-platform-attempt').spec).to.not.have.property('replicas');
    expect(find(objs, 'HorizontalPodAutoscaler', 'edu-edu-platform-gateway').spec.maxReplicas).to.equal(20);
    expect(find(objs, 'PodDisruptionBudget', 'edu-edu-platform-gateway').spec.maxUnavailable).to.equal(1);
  });

  it("runs every service's outbox relay: events reach Kafka (OUTBOX_PUBLISHER=kafka unless a service's env says otherwise)", async () => {
    const objs = await renderExternal();
    for (const svc of ['auth', 'analytics', 'attempt', 'question-bank', 'document-import']) {
      expect(find(objs, 'ConfigMap', `edu-edu-platform-${svc}`).data.OUTBOX_PUBLISHER, svc).to.equal('kafka');
    }
  });

  it('scrapes with the metrics token and alerts and charts only on metrics the code exports', async () => {
    const objs = await renderExternal();
    const monitors = objs.filter((o) => o.kind === 'ServiceMonitor');
    expect(monitors.map((m) => m.metadata.name)).to.include.members([
      'edu-edu-platform-gateway',
      'edu-edu-platform-operator',
      'edu-edu-platform-auth',
    ]);
    for (const m of monitors) {
      expect(m.apiVersion).to.equal('monitoring.coreos.com/v1');
      expect(m.spec.endpoints[0]).to.deep.include({ port: 'http', path: '/metrics' });
      expect(m.spec.endpoints[0].authorization).to.deep.equal({
        type: 'Bearer',
        credentials: { name: 'edu-edu-platform-secrets', key: 'METRICS_TOKEN' },
      });
    }
    const rule = objs.find((o) => o.kind === 'PrometheusRule')!;
    const exprs = (rule.spec.groups as Obj[]).flatMap((g) => (g.rules as Obj[]).map((r) => r.expr as string));
    const dashboard = find(objs, 'ConfigMap', 'edu-edu-platform-dashboard');
    expect(dashboard.metadata.labels.grafana_dashboard).to.equal('1');
    const panels = JSON.parse(dashboard.data['edu-platform.json']).panels as Obj[];
    const used = [...exprs, ...panels.flatMap((p) => (p.targets as Obj[]).map((t) => t.expr as string))]
      .flatMap((e) => [...e.matchAll(/\b([a-z_]+?)(_bucket|_count|_sum)?\{/g)].map((m) => m[1]!))
      .filter((n) => !['rate', 'increase', 'sum', 'max'].includes(n));
    const sources = execFileSync(
      'git',
      ['grep', '-h', '-o', "name *[:=] *'[a-z_]*'", '--', ':(glob)services/*/src/**', 'operator/src'],
      { cwd: root, encoding: 'utf8' },
    );
    for (const metric of new Set(used)) expect(sources, `${metric} is exported by the code`).to.contain(`'${metric}'`);
    expect(new Set(used)).to.include('outbox_dead_total').and.include('docx_import_queue_pending_jobs');
    // Prometheus is admitted to the metrics port of the services, the operator and the gateway.
    for (const name of ['edu-edu-platform-attempt', 'edu-edu-platform-operator', 'edu-edu-platform-gateway']) {
      const from = (find(objs, 'NetworkPolicy', name).spec.ingress as Obj[]).flatMap((r) => r._from ?? r.from ?? []);
      expect(
        from.some((f: Obj) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring'),
        name,
      ).to.equal(true);
    }
  });
});
