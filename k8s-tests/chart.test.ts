// The Helm chart, first offline (lint, render, schema, docs), then on a real API server: server-side
// validation, install, Pod Security, upgrade, uninstall. There is no kubelet on the local control
// plane, so no pod ever runs: the chart's runtime behaviour (probes, rs.initiate, helm test) is
// exercised on kind, not here.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllYaml, loadYaml } from '@kubernetes/client-node';
import { helm, kubectl } from './helpers/cluster.js';
import { OPERATOR_RULES } from './helpers/operator-rbac.js';
import { SERVICES as REGISTRY } from '../services/registry.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are untyped YAML */
type Obj = Record<string, any>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chart = path.join(root, 'charts', 'edu-platform');
const allValues = path.join(chart, 'ci', 'all-values.yaml');
const clusterScript = path.join(root, 'scripts', 'cluster.sh');
const CRD = 'docximportjobs.imports.edu-platform.io';
/** The services the chart deploys under `services:` (services/registry.ts: all but the gateway). */
const SERVICES: Record<string, { port: number; db: string }> = Object.fromEntries(
  REGISTRY.filter((s) => s.chartKey.startsWith('services.')).map((s) => [
    s.name,
    { port: s.port, db: s.database ?? '' },
  ]),
);

// The chart has no default MongoDB or Kafka host: every render names external ones (values files and
// --set after these win; ci/all-values.yaml switches the in-cluster ones on, which take precedence).
const STORES = [
  '--set',
  'mongodb.uri=mongodb://db.example.net:27017/?replicaSet=rs0',
  '--set',
  'kafka.brokers={kafka.example.net:9092}',
];

async function render(release: string, args: string[] = [], namespace = 'edu'): Promise<Obj[]> {
  const out = await helm(['template', release, chart, '-n', namespace, ...STORES, ...args]);
  return (loadAllYaml(out) as Obj[]).filter((o) => o && o.kind);
}
const find = (objs: Obj[], kind: string, name: string): Obj => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o)
    throw new Error(`${kind}/${name} not rendered; have ${objs.map((x) => `${x.kind}/${x.metadata.name}`).join(', ')}`);
  return o;
};
const decode = (data: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
const named = (objs: Obj[], kind: string): string[] =>
  objs
    .filter((o) => o.kind === kind)
    .map((o) => o.metadata.name)
    .sort();

/** Every pod spec the chart defines, with where it came from. */
function podSpecs(objs: Obj[]): Array<{ from: string; metadata: Obj; spec: Obj }> {
  return objs.flatMap((o) => {
    const from = `${o.kind}/${o.metadata.name}`;
    if (o.kind === 'Pod') return [{ from, metadata: o.metadata, spec: o.spec }];
    if (o.kind === 'Deployment' || o.kind === 'StatefulSet') return [{ from, ...o.spec.template }];
    return [];
  });
}

/** Re-runs `check` every 2 s until it returns '' or 2 minutes pass; returns its last answer. */
async function poll(check: () => Promise<string>): Promise<string> {
  let last = await check();
  for (let i = 0; i < 60 && last; i += 1) {
    await new Promise((r) => setTimeout(r, 2000));
    last = await check();
  }
  return last;
}

/** helm lint prints its findings on stdout, which the shared helper drops on failure; keep them. */
function lint(args: string[]): string {
  const env = execFileSync('bash', [clusterScript, 'env'], { encoding: 'utf8' });
  const bin = process.env.HELM || /^HELM=(.*)$/m.exec(env)?.[1];
  if (!bin) throw new Error('HELM unknown: run scripts/cluster.sh tools');
  const res = spawnSync(bin, ['lint', '--strict', chart, ...args], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`helm lint ${args.join(' ')} failed:\n${res.stdout}${res.stderr}`);
  return res.stdout;
}

async function rejects(args: string[]): Promise<string> {
  try {
    await render('bad', args);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`helm template ${args.join(' ')} rendered, but the schema should have refused it`);
}

describe('charts/edu-platform', function () {
  this.timeout(600_000);

  before(() => {
    execFileSync('bash', [clusterScript, 'tools'], { stdio: ['ignore', 'ignore', 'inherit'] });
  });

  describe('offline: lint, render, schema, documentation', () => {
    it('passes helm lint --strict with the default values and with ci/all-values.yaml', () => {
      // helm lint does not report a template's `fail`: the defaults pass although they do not render.
      expect(lint([])).to.match(/1 chart\(s\) linted, 0 chart\(s\) failed/);
      expect(lint(['-f', allValues])).to.match(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    });

    it('renders the defaults as auth, document-import, the operator and the default DocxImportJob, with no data stores', async () => {
      const objs = await render('edu-platform');
      expect(named(objs, 'Deployment')).to.deep.equal([
        'edu-platform-auth',
        'edu-platform-document-import',
        'edu-platform-operator',
      ]);
      expect(named(objs, 'StatefulSet')).to.deep.equal([]);
      const job = find(objs, 'DocxImportJob', 'edu-platform-docx-parser');
      expect(job.apiVersion).to.equal('imports.edu-platform.io/v1alpha1');
      expect(job.spec.queue).to.deep.equal({ topic: 'docx-import.jobs.v1', consumerGroup: 'docx-parser' });
      expect(job.spec.scaling).to.deep.equal({
        minWorkers: 0,
        maxWorkers: 5,
        jobsPerWorker: 10,
        scaleDownDelaySeconds: 60,
        scaleDownStep: 1,
      });
      // The job carries only what the operator's allow-list takes; the program, identity and
      // credentials come from the operator's worker policy.
      const worker = job.spec.worker.template.spec.containers[0];
      expect(Object.keys(worker).sort()).to.deep.equal(['image', 'imagePullPolicy', 'name', 'resources']);
      expect(Object.keys(job.spec.worker.template.spec).sort()).to.deep.equal([
        'containers',
        'terminationGracePeriodSeconds',
      ]);
      const image = find(objs, 'Deployment', 'edu-platform-auth').spec.template.spec.containers[0].image;
      expect(worker.image).to.equal(image);
      const operator = find(objs, 'Deployment', 'edu-platform-operator').spec.template.spec;
      expect(operator.containers[0].args).to.deep.equal(['node', 'dist/operator/src/main.js']);
      expect(operator.containers[0].ports[0].containerPort).to.equal(4010);
      expect(operator.containers[0].readinessProbe.httpGet.path).to.equal('/readyz');
      const fromPod = Object.fromEntries(
        operator.containers[0].env
          .filter((e: Obj) => e.valueFrom.fieldRef)
          .map((e: Obj) => [e.name, e.valueFrom.fieldRef.fieldPath]),
      );
      expect(fromPod).to.deep.equal({ OPERATOR_NAMESPACE: 'metadata.namespace', POD_NAME: 'metadata.name' });
      const metricsToken = operator.containers[0].env.find((e: Obj) => e.name === 'METRICS_TOKEN');
      expect(metricsToken.valueFrom.secretKeyRef).to.deep.equal({ name: 'edu-platform-secrets', key: 'METRICS_TOKEN' });
      expect(find(objs, 'ConfigMap', 'edu-platform-operator').data).to.include({
        KAFKA_BROKERS: 'kafka.example.net:9092',
        LEADER_ELECTION: 'true',
        PORT: '4010',
        WORKER_SERVICE_ACCOUNT: 'edu-platform',
        WORKER_IMAGE: image,
        WORKER_ALLOWED_IMAGES: 'edu-platform',
        WORKER_CONFIGMAP: 'edu-platform-docx-parser-worker',
        // The workers' credentials: their database and the narrow worker token, never INTERNAL_API_TOKEN.
        WORKER_SECRET_ENV:
          'MONGODB_URI=edu-platform-mongodb-uris:document-import,WORKER_API_TOKEN=edu-platform-secrets:WORKER_API_TOKEN',
        WORKER_RUN_AS_USER: '10001',
        WORKER_TMP_SIZE_LIMIT: '64Mi',
      });
    });

    it('renders every service from ci/all-values.yaml with its port, database, Kafka and secrets', async () => {
      const objs = await render('edu-platform', ['-f', allValues]);
      expect(named(objs, 'StatefulSet')).to.deep.equal(['edu-platform-kafka', 'edu-platform-mongodb']);
      const uris = decode(find(objs, 'Secret', 'edu-platform-mongodb-uris').data);
      for (const [name, { port, db }] of Object.entries(SERVICES)) {
        const pod = find(objs, 'Deployment', `edu-platform-${name}`).spec.template.spec;
        const c = pod.containers[0];
        expect(c.args, name).to.deep.equal(['node', 'dist/services/cli.js', name]);
        expect(c.ports[0].containerPort, name).to.equal(port);
        const config = find(objs, 'ConfigMap', `edu-platform-${name}`).data;
        expect(config, name).to.include({
          PORT: String(port),
          MONGODB_DB: db,
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
        });
        expect(config.KAFKA_BROKERS, name).to.equal('edu-platform-kafka.edu.svc.cluster.local:9092');
        expect(config.AUTH_SERVICE_URL, name).to.equal('http://edu-platform-auth.edu.svc.cluster.local:4001');
        expect(uris[name], name).to.equal(
          `mongodb://edu-platform-mongodb-0.edu-platform-mongodb.edu.svc.cluster.local:27017/${db}?replicaSet=rs0`,
        );
        const secretEnv = Object.fromEntries(c.env.map((e: Obj) => [e.name, e.valueFrom.secretKeyRef]));
        expect(secretEnv.MONGODB_URI, name).to.deep.equal({ name: 'edu-platform-mongodb-uris', key: name });
        for (const key of ['INTERNAL_API_TOKEN', 'METRICS_TOKEN'])
          expect(secretEnv[key], `${name} ${key}`).to.deep.equal({ name: 'edu-platform-secrets', key });
        expect(Boolean(secretEnv.AUTH_JWT_SECRET), `${name} gets AUTH_JWT_SECRET`).to.equal(name === 'auth');
        expect(Boolean(secretEnv.WORKER_API_TOKEN), `${name} gets WORKER_API_TOKEN`).to.equal(name === 'question-bank');
        expect(config.TRUST_PROXY, `${name} TRUST_PROXY`).to.equal(name === 'auth' ? '1' : undefined);
      }
      expect(find(objs, 'ConfigMap', 'edu-platform-question-bank').data.OUTBOX_PUBLISHER).to.equal('kafka');
    });

    it('gives document-import and its workers one GridFS spool, database and queue, and the peers only when configured', async () => {
      const plain = await render('edu-platform');
      const shared = {
        DOCX_IMPORT_PAYLOAD_STORE: 'gridfs',
        MONGODB_DB: 'edu_document_import',
        KAFKA_BROKERS: 'kafka.example.net:9092',
      };
      const api = find(plain, 'ConfigMap', 'edu-platform-document-import').data;
      const workers = find(plain, 'ConfigMap', 'edu-platform-docx-parser-worker').data;
      expect(api).to.include({
        ...shared,
        DOCX_IMPORT_TOPIC: 'docx-import.jobs.v1',
        DOCX_IMPORT_CONSUMER_GROUP: 'docx-parser',
        WORKER_CONCURRENCY: '1',
      });
      expect(workers).to.include(shared);
      for (const data of [api, workers])
        expect(data).to.not.have.any.keys('DOCUMENT_SERVICE_URL', 'EXAM_SERVICE_URL', 'QUESTION_BANK_URL');
      // The operator injects the queue into the workers from the job's spec; a copy here could only disagree.
      expect(workers).to.not.have.any.keys('DOCX_IMPORT_TOPIC', 'DOCX_IMPORT_CONSUMER_GROUP', 'WORKER_CONCURRENCY');
      expect(find(plain, 'ConfigMap', 'edu-platform-operator').data.WORKER_SECRET_ENV).to.include(
        'MONGODB_URI=edu-platform-mongodb-uris:document-import',
      );

      const objs = await render('edu-platform', [
        '-f',
        allValues,
        '--set',
        'peers.documentServiceUrl=https://docs.example.net/api',
        '--set',
        'peers.examServiceUrl=http://exam.exams.svc:8088',
        '--set',
        'docxImportJob.queue.topic=imports.jobs',
        '--set',
        'docxImportJob.worker.concurrency=3',
      ]);
      const peers = {
        DOCUMENT_SERVICE_URL: 'https://docs.example.net/api',
        EXAM_SERVICE_URL: 'http://exam.exams.svc:8088',
        QUESTION_BANK_URL: 'http://edu-platform-question-bank.edu.svc.cluster.local:4005',
      };
      expect(find(objs, 'ConfigMap', 'edu-platform-document-import').data).to.include({
        ...peers,
        DOCX_IMPORT_TOPIC: 'imports.jobs',
        WORKER_CONCURRENCY: '3',
      });
      expect(find(objs, 'ConfigMap', 'edu-platform-docx-parser-worker').data).to.include(peers);
      for (const name of ['edu-platform-document-import', 'edu-platform-docx-parser-worker']) {
        const egress = find(objs, 'NetworkPolicy', name).spec.egress as Obj[];
        expect(egress.at(-1), name).to.deep.equal({
          ports: [
            { port: 443, protocol: 'TCP' },
            { port: 8088, protocol: 'TCP' },
          ],
        });
      }
      const attempt = find(objs, 'NetworkPolicy', 'edu-platform-attempt').spec.egress as Obj[];
      expect(attempt.flatMap((r) => r.ports.map((p: Obj) => p.port))).to.not.include(8088);
    });

    it('puts each service database into an external mongodb.uri before its options', async () => {
      const objs = await render('edu-platform', [
        '--set',
        'mongodb.uri=mongodb+srv://u:p@db.example.net/?retryWrites=true',
        '--set',
        'kafka.brokers={b1:9092,b2:9092}',
      ]);
      expect(decode(find(objs, 'Secret', 'edu-platform-mongodb-uris').data).attempt).to.equal(
        'mongodb+srv://u:p@db.example.net/edu_attempts?retryWrites=true',
      );
      expect(find(objs, 'ConfigMap', 'edu-platform-auth').data.KAFKA_BROKERS).to.equal('b1:9092,b2:9092');
    });

    it('runs every container non-root, read-only, without capabilities, with /tmp, limits and probes', async () => {
      const objs = await render('edu-platform', ['-f', allValues]);
      const specs = podSpecs(objs);
      // 7 services, operator, mongodb, kafka, helm test (the operator builds the worker pod: operator/test)
      expect(specs).to.have.length(11);
      for (const { from, spec } of specs) {
        expect(spec.securityContext, from).to.include({ runAsNonRoot: true });
        expect(spec.securityContext.seccompProfile, from).to.deep.equal({ type: 'RuntimeDefault' });
        expect(spec.automountServiceAccountToken, from).to.equal(from === 'Deployment/edu-platform-operator');
        for (const c of spec.containers) {
          const where = `${from} ${c.name}`;
          expect(c.securityContext, where).to.include({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
          });
          expect(c.securityContext.capabilities.drop, where).to.deep.equal(['ALL']);
          expect(c.resources.requests.memory && c.resources.limits.memory, where).to.be.a('string');
          const tmp = (c.volumeMounts ?? []).find((m: Obj) => m.mountPath === '/tmp');
          if (from !== 'Pod/edu-platform-test-auth-readyz')
            expect(spec.volumes.find((v: Obj) => v.name === tmp?.name)?.emptyDir, where).to.be.an('object');
        }
      }
      for (const name of Object.keys(SERVICES)) {
        const c = find(objs, 'Deployment', `edu-platform-${name}`).spec.template.spec.containers[0];
        expect([c.livenessProbe.httpGet.path, c.readinessProbe.httpGet.path], name).to.deep.equal([
          '/healthz',
          '/readyz',
        ]);
        expect(find(objs, 'PodDisruptionBudget', `edu-platform-${name}`).spec.maxUnavailable, name).to.equal(1);
      }
    });

    it('grants the operator exactly its documented permissions, in its namespace only', async () => {
      const objs = await render('edu-platform');
      expect(objs.filter((o) => /^Cluster/.test(o.kind))).to.deep.equal([]);
      const rules = find(objs, 'Role', 'edu-platform-operator').rules.map(
        (r: Obj) =>
          `${r.apiGroups.join(',')}|${r.resources.join(',')}|${(r.resourceNames ?? []).join(',')}|${r.verbs.join(',')}`,
      );
      // The cluster tests run the operator under OPERATOR_RULES; the chart must grant exactly those.
      const proven = OPERATOR_RULES.map(
        (r) =>
          `${r.apiGroups.join(',')}|${r.resources.join(',')}|${(r.resourceNames ?? []).map(() => 'edu-platform-operator').join(',')}|${r.verbs.join(',')}`,
      );
      expect(rules).to.deep.equal(proven);
      expect(find(objs, 'ConfigMap', 'edu-platform-operator').data.LEASE_NAME).to.equal('edu-platform-operator');
    });

    it('limits egress to DNS, MongoDB, Kafka and peer service ports, and ingress to the service port', async () => {
      const objs = await render('edu-platform', ['-f', allValues]);
      const policy = find(objs, 'NetworkPolicy', 'edu-platform-attempt').spec;
      expect(policy.policyTypes).to.deep.equal(['Ingress', 'Egress']);
      // Nobody calls attempt over HTTP: its port admits nobody (an empty `from` would admit everyone).
      expect(policy.ingress).to.deep.equal([]);
      const egressPorts = policy.egress.map((r: Obj) =>
        r.ports.map((p: Obj) => p.port as number).sort((a: number, b: number) => a - b),
      );
      expect(egressPorts).to.deep.equal([[53, 53], [27017], [9092], Object.values(SERVICES).map((s) => s.port)]);
      expect(
        policy.egress.every((r: Obj) => r.to?.length > 0),
        'every egress rule names its peers',
      ).to.equal(true);
      expect(named(objs, 'NetworkPolicy')).to.have.length(11);
      // loadAllYaml types known kinds: NetworkPolicyIngressRule's `from` is read as `_from`.
      const from = (name: string) =>
        (find(objs, 'NetworkPolicy', `edu-platform-${name}`).spec.ingress as Obj[]).flatMap((r) =>
          (r._from ?? r.from ?? [{ any: true }]).map(
            (f: Obj) => f.podSelector?.matchLabels?.['app.kubernetes.io/component'] ?? f,
          ),
        );
      expect(from('question-bank')).to.deep.equal(['document-import', 'docx-parser-worker']);
      expect(from('auth')).to.deep.equal(['test']);
      expect(from('operator')).to.deep.equal([]);
      // The gateway reaches auth and the owners of its tables; extraIngress (monitoring) reaches every port.
      const withGateway = await render('edu-platform', [
        '-f',
        allValues,
        '--set',
        'gateway.enabled=true,gateway.tables.analytics=true',
        '--set-json',
        'networkPolicy.extraIngress=[{"namespaceLabels":{"kubernetes.io/metadata.name":"monitoring"}}]',
      ]);
      const sources = (name: string) =>
        (find(withGateway, 'NetworkPolicy', `edu-platform-${name}`).spec.ingress as Obj[]).flatMap((r) =>
          (r._from ?? r.from).map((f: Obj) =>
            f.podSelector
              ? f.podSelector.matchLabels['app.kubernetes.io/component']
              : f.namespaceSelector.matchLabels['kubernetes.io/metadata.name'],
          ),
        );
      expect(sources('auth')).to.deep.equal(['gateway', 'test', 'monitoring']);
      expect(sources('analytics')).to.deep.equal(['gateway', 'monitoring']);
      expect(sources('notification')).to.deep.equal(['monitoring']);
      expect(sources('operator')).to.deep.equal(['monitoring']);
    });

    it('sizes the document-import upload spool for the upload limit times its concurrency, with matching ephemeral storage', async () => {
      const objs = await render('edu-platform', ['--set', 'uploads.maxConcurrent=6']);
      const pod = find(objs, 'Deployment', 'edu-platform-document-import').spec.template.spec;
      const spool = pod.volumes.find((v: Obj) => v.name === 'upload-spool');
      expect(spool.emptyDir.sizeLimit).to.equal(`${50 * 6 + 54}Mi`);
      const c = pod.containers[0];
      expect(c.volumeMounts).to.deep.include({ name: 'upload-spool', mountPath: '/var/spool/edu-upload' });
      expect(c.resources.requests['ephemeral-storage']).to.equal(`${50 * 6 + 54 + 64}Mi`);
      expect(c.resources.limits['ephemeral-storage']).to.equal(`${50 * 6 + 54 + 64 + 256}Mi`);
      expect(find(objs, 'ConfigMap', 'edu-platform-document-import').data).to.include({
        UPLOAD_SPOOL_DIR: '/var/spool/edu-upload',
        UPLOAD_MAX_CONCURRENT: '6',
      });
    });

    it('renders the operator admission policy only where the cluster serves ValidatingAdmissionPolicy, bound to the release namespace', async () => {
      expect(named(await render('edu-platform'), 'ValidatingAdmissionPolicy')).to.deep.equal([]);
      const objs = await render('edu-platform', [
        '--api-versions',
        'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy',
      ]);
      const policy = find(objs, 'ValidatingAdmissionPolicy', 'edu-platform-edu-operator-deployments');
      expect(policy.spec.matchConditions[0].expression).to.equal(
        'request.userInfo.username == "system:serviceaccount:edu:edu-platform-operator"',
      );
      const binding = find(objs, 'ValidatingAdmissionPolicyBinding', 'edu-platform-edu-operator-deployments');
      expect(binding.spec.matchResources.namespaceSelector.matchLabels).to.deep.equal({
        'kubernetes.io/metadata.name': 'edu',
      });
      const off = await render('edu-platform', [
        '--api-versions',
        'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy',
        '--set',
        'operator.admissionPolicy.enabled=false',
      ]);
      expect(named(off, 'ValidatingAdmissionPolicy')).to.deep.equal([]);
    });

    it('renders the gateway when enabled: tables switched from values, service URLs, secrets, a public-edge policy, an /api Ingress', async () => {
      const objs = await render('edu-platform', [
        '-f',
        allValues,
        '--set',
        'gateway.enabled=true,gateway.tables.analytics=true,gateway.ingress.enabled=true,gateway.ingress.host=edu.example.vn',
      ]);
      const config = find(objs, 'ConfigMap', 'edu-platform-gateway').data;
      expect([config.GATEWAY_TABLE_ANALYTICS, config.GATEWAY_TABLE_AUTH, config.NODE_ENV]).to.deep.equal([
        'on',
        'off',
        'production',
      ]);
      expect(config.GATEWAY_ANALYTICS_URL).to.equal('http://edu-platform-analytics.edu.svc.cluster.local:4003');
      const c = find(objs, 'Deployment', 'edu-platform-gateway').spec.template.spec.containers[0];
      expect(c.args).to.deep.equal(['node', 'dist/services/cli.js', 'gateway']);
      expect(c.env.map((e: Obj) => e.name)).to.deep.equal(['AUTH_JWT_SECRET', 'INTERNAL_API_TOKEN', 'METRICS_TOKEN']);
      expect(config).to.include({
        GATEWAY_AUTH_URL: 'http://edu-platform-auth.edu.svc.cluster.local:4001',
        GATEWAY_REVOCATION_POLL_MS: '2000',
        GATEWAY_MAX_CONCURRENT_PER_CLIENT: '16',
        GATEWAY_MAX_STREAMS_PER_CLIENT: '4',
        GATEWAY_QUEUE_TIMEOUT_MS: '5000',
        // As every service: answering, readiness failing, while the endpoint removal propagates.
        SHUTDOWN_DELAY_MS: '5000',
      });
      expect(
        find(objs, 'Deployment', 'edu-platform-gateway').spec.template.spec.terminationGracePeriodSeconds,
      ).to.equal(find(objs, 'Deployment', 'edu-platform-auth').spec.template.spec.terminationGracePeriodSeconds);
      expect(config).to.not.have.property('GATEWAY_ALLOWED_ORIGINS');
      expect(find(objs, 'Service', 'edu-platform-gateway').spec.ports[0].port).to.equal(4000);
      const policy = find(objs, 'NetworkPolicy', 'edu-platform-gateway').spec;
      expect(policy.ingress).to.deep.equal([{ ports: [{ port: 4000, protocol: 'TCP' }] }]);
      expect(policy.egress.map((r: Obj) => r.ports.map((p: Obj) => p.port).sort())).to.deep.equal([
        [53, 53],
        Object.values(SERVICES).map((s) => s.port),
      ]);
      expect(find(objs, 'Ingress', 'edu-platform-gateway').spec.rules[0].http.paths[0].path).to.equal('/api');
      expect(await rejects(['--set', 'gateway.enabled=true,gateway.tables.search=true'])).to.match(
        /additional properties 'search' not allowed/,
      );
      expect(
        await rejects(['--set', 'gateway.enabled=true,gateway.tables.analytics=true,services.analytics.enabled=false']),
      ).to.match(/gateway.tables.analytics needs services.analytics.enabled/);
    });

    it('rejects values the schema forbids: negative replicas, unknown keys and services, reserved env, bad URIs, short secrets, no Kafka', async () => {
      expect(await rejects(['--set', 'services.auth.replicas=-1'])).to.match(/services\/auth\/replicas.*minimum/);
      expect(await rejects(['--set', 'services.auth.replica=2'])).to.match(
        /additional properties 'replica' not allowed/,
      );
      expect(await rejects(['--set', 'services.search.enabled=true'])).to.match(
        /additional properties 'search' not allowed/,
      );
      expect(await rejects(['--set', 'bogus=1'])).to.match(/additional properties 'bogus' not allowed/);
      expect(await rejects(['--set', 'services.auth.env.MONGODB_URI=x'])).to.match(/propertyName 'MONGODB_URI'/);
      expect(await rejects(['--set', 'services.document-import.env.DOCX_IMPORT_PAYLOAD_STORE=dir'])).to.match(
        /propertyName 'DOCX_IMPORT_PAYLOAD_STORE'/,
      );
      expect(await rejects(['--set', 'peers.documentServiceUrl=ftp://docs'])).to.match(/peers\/documentServiceUrl/);
      expect(await rejects(['--set', 'mongodb.uri=mongodb://h:27017/admin'])).to.match(/mongodb\/uri/);
      expect(await rejects(['--set', 'secrets.jwtSecret=short'])).to.match(/secrets\/jwtSecret/);
      expect(await rejects(['--set', 'docxImportJob.scaling.maxWorkers=0'])).to.match(/maxWorkers.*minimum/);
      // --set wins over --set-json in Helm, so the brokers STORES set are removed with --set.
      expect(await rejects(['--set', 'kafka.brokers=null'])).to.match(/Kafka, which is mandatory/);
    });

    it('types and describes every value: each values.yaml leaf has a @param, each @param a schema entry', () => {
      const text = readFileSync(path.join(chart, 'values.yaml'), 'utf8');
      const schema = JSON.parse(readFileSync(path.join(chart, 'values.schema.json'), 'utf8')) as Obj;
      const params = [...text.matchAll(/^\s*## @param (\S+) \S.*$/gm)].map((m) => m[1]!);
      const leaves = (v: unknown, at: string[]): string[][] =>
        v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0
          ? Object.entries(v).flatMap(([k, x]) => leaves(x, [...at, k]))
          : [at];
      const deref = (s: Obj): Obj => (s.$ref ? { ...schema.definitions[s.$ref.split('/').pop()], ...s } : s);
      const undocumented = leaves(loadYaml(text), [])
        .map((p) => p.join('.'))
        .filter((leaf) => !params.some((p) => leaf === p || leaf.startsWith(`${p}.`)));
      expect(undocumented, 'values without ## @param').to.deep.equal([]);
      for (const param of params) {
        let node = deref(schema);
        for (const key of param.split('.')) {
          expect(node.additionalProperties, `${param}: object closed`).to.equal(false);
          node = deref(node.properties?.[key] ?? {});
        }
        expect(node.description, `${param} described`).to.be.a('string');
        expect(node.type, `${param} typed`).to.not.equal(undefined);
      }
    });

    it('keeps charts/edu-platform/crds byte-identical to crds/ (make crds-sync)', () => {
      const yamls = (dir: string) =>
        readdirSync(dir)
          .filter((f) => /\.ya?ml$/.test(f))
          .sort();
      const source = yamls(path.join(root, 'crds'));
      expect(source, 'crds/ has the CRD').to.include(`${CRD}.yaml`);
      expect(yamls(path.join(chart, 'crds'))).to.deep.equal(source);
      for (const f of source) {
        expect(readFileSync(path.join(chart, 'crds', f)).equals(readFileSync(path.join(root, 'crds', f))), f).to.equal(
          true,
        );
      }
    });
  });

  describe('on a cluster: install, validate, upgrade, uninstall', () => {
    const ns = `chart-test-${randomBytes(3).toString('hex')}`;
    const release = 'edu-platform';
    const dryRun = (values: string[]) =>
      helm(['install', release, chart, '-n', ns, '--dry-run=server', ...STORES, ...values]);

    before(async () => {
      // The root hook (k8s-tests/helpers/global-setup.ts) has brought the cluster up.
      // Pods in this namespace must meet the restricted Pod Security Standard, or the API server refuses them.
      await kubectl(['create', 'namespace', ns]);
      await kubectl([
        'label',
        'namespace',
        ns,
        'pod-security.kubernetes.io/enforce=restricted',
        'pod-security.kubernetes.io/warn=restricted',
      ]);
      // Helm creates CRDs only on a real install; the dry runs below need the kind to exist already.
      await kubectl(['create', '-f', path.join(chart, 'crds')]).catch((err: Error) => {
        if (!/AlreadyExists|already exists/.test(err.message)) throw err;
      });
      await kubectl(['wait', '--for=condition=Established', `crd/${CRD}`, '--timeout=60s']);
    });

    afterEach(async function () {
      if (this.currentTest?.state !== 'failed') return;
      const dump = await kubectl(['get', 'all,events,docximportjobs', '-n', ns, '-o', 'wide']).catch(
        (e: Error) => e.message,
      );
      console.log(`--- namespace ${ns} after "${this.currentTest.title}":\n${dump}`);
    });

    after(async () => {
      await helm(['uninstall', release, '-n', ns]).catch(() => undefined);
      await kubectl(['delete', 'namespace', ns, '--wait=false']).catch(() => undefined);
    });

    it('passes helm install --dry-run=server with the defaults and with ci/all-values.yaml', async () => {
      expect(await dryRun([])).to.match(/STATUS: pending-install/);
      expect(await dryRun(['-f', allValues])).to.match(/STATUS: pending-install/);
    });

    it('has every rendered object accepted by the API server (kubectl create --dry-run=server)', async () => {
      for (const values of [[], ['-f', allValues]]) {
        const manifest = await helm(['template', release, chart, '-n', ns, '--skip-tests', ...STORES, ...values]);
        const out = await kubectl(['create', '-n', ns, '--dry-run=server', '-o', 'name', '-f', '-'], {
          input: manifest,
        });
        expect(out).to.match(/docximportjob\.imports\.edu-platform\.io\/edu-platform-docx-parser/);
      }
    });

    it('installs every service, MongoDB and Kafka, and every object of the release exists', async () => {
      await helm(['install', release, chart, '-n', ns, '-f', allValues, '--wait=hookOnly', '--timeout=2m']);
      const manifest = (loadAllYaml(await helm(['get', 'manifest', release, '-n', ns])) as Obj[]).filter(
        (o) => o?.kind,
      );
      expect(manifest.length).to.be.greaterThan(50);
      for (const o of manifest) {
        const got = await kubectl([
          'get',
          o.kind,
          o.metadata.name,
          '-n',
          ns,
          '-o',
          'jsonpath={.metadata.labels.app\\.kubernetes\\.io/instance}',
        ]);
        expect(got, `${o.kind}/${o.metadata.name}`).to.equal(release);
      }
      const dij = await kubectl(['get', 'dij', '-n', ns, '-o', 'name']);
      expect(dij.trim()).to.equal('docximportjob.imports.edu-platform.io/edu-platform-docx-parser');
    });

    it('defines only pods that the restricted Pod Security Standard admits', async () => {
      const objs = await render(release, ['-f', allValues], ns);
      for (const { from, metadata, spec } of podSpecs(objs)) {
        // A StatefulSet's claim templates become volumes only in its pods; stand in with an emptyDir.
        const volumes = [...(spec.volumes ?? [])];
        if (!volumes.some((v: Obj) => v.name === 'data') && from.startsWith('StatefulSet'))
          volumes.push({ name: 'data', emptyDir: {} });
        const pod = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: `pss-${randomBytes(3).toString('hex')}`, labels: metadata.labels },
          spec: { ...spec, volumes },
        };
        await kubectl(['create', '-n', ns, '--dry-run=server', '-f', '-'], { input: JSON.stringify(pod) }).catch(
          (err: Error) => {
            throw new Error(`${from}: ${err.message}`);
          },
        );
      }
      // The control: the namespace really enforces the standard.
      const root = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'pss-control' },
        spec: { containers: [{ name: 'c', image: 'busybox' }] },
      };
      const refused = await kubectl(['create', '-n', ns, '--dry-run=server', '-f', '-'], {
        input: JSON.stringify(root),
      }).then(
        () => '',
        (e: Error) => e.message,
      );
      expect(refused).to.match(/violates PodSecurity "restricted/);
    });

    it('keeps the generated AUTH_JWT_SECRET, INTERNAL_API_TOKEN, WORKER_API_TOKEN and METRICS_TOKEN across helm upgrade', async () => {
      const read = () =>
        kubectl(['get', 'secret', 'edu-platform-secrets', '-n', ns, '-o', 'jsonpath={.data}']).then(
          (d) => JSON.parse(d) as Obj,
        );
      const before = await read();
      expect(Buffer.from(before.AUTH_JWT_SECRET, 'base64').toString()).to.have.length(48);
      expect(Object.keys(before).sort()).to.deep.equal([
        'AUTH_JWT_SECRET',
        'INTERNAL_API_TOKEN',
        'METRICS_TOKEN',
        'WORKER_API_TOKEN',
      ]);
      expect(before.WORKER_API_TOKEN).to.not.equal(before.INTERNAL_API_TOKEN);
      await helm(['upgrade', release, chart, '-n', ns, '-f', allValues, '--wait=hookOnly']);
      expect(await read()).to.deep.equal(before);
    });

    it('helm uninstall removes every object of the release; the CRD stays, as Helm never deletes CRDs', async () => {
      // With kube-controller-manager running, the StatefulSets' claims exist and must name their set as
      // owner (retention policy Delete in ci/all-values.yaml), or the garbage collector could not remove them.
      const owners = await poll(async () => {
        const out = await kubectl([
          'get',
          'pvc',
          '-n',
          ns,
          '-o',
          'jsonpath={range .items[*]}{.metadata.name}={.metadata.ownerReferences[*].kind};{end}',
        ]);
        return out
          .split(';')
          .filter((c) => c && !c.endsWith('=StatefulSet'))
          .join(' ');
      });
      expect(owners, 'claims without their StatefulSet as owner').to.equal('');
      await helm(['uninstall', release, '-n', ns]);
      const types = (await kubectl(['api-resources', '--verbs=list', '--namespaced', '-o', 'name']))
        .split('\n')
        .filter((t) => t && !/^events/.test(t));
      // Pods, ReplicaSets, EndpointSlices and claims carry the release labels too; the garbage collector removes them.
      const left = await poll(async () => {
        const byLabel = `app.kubernetes.io/instance=${release}`;
        const objects = await kubectl([
          'get',
          types.join(','),
          '-n',
          ns,
          '-l',
          byLabel,
          '-o',
          'name',
          '--ignore-not-found',
        ]);
        const history = await kubectl(['get', 'secrets', '-n', ns, '-l', `owner=helm,name=${release}`, '-o', 'name']);
        return `${objects}${history}`.trim();
      });
      expect(left, 'objects left behind').to.equal('');
      expect(await kubectl(['get', 'crd', CRD, '-o', 'name'])).to.contain(CRD);
    });
  });
});
