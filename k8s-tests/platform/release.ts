// The release the node suite installs and what its tests read of it: pods and their readiness,
// Service addresses, the internal token, DocxImportJob status. The chart's values come from
// EDU_PLATFORM_VALUES (comma-separated; default: charts/edu-platform/ci/node-values.yaml, the local
// node; kind-setup.ts names ci/kind-values.yaml and, without a registry, ci/kind-local-values.yaml). On the
// local node the release reaches the secure profile's SASL_SSL Kafka and TLS MongoDB
// (node-secure-values.yaml), with the CA, the client certificate and the Kafka credentials in Secrets.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { helm, kubectl } from '../helpers/cluster.js';
import { forward, type PortForward } from '../helpers/port-forward.js';
import { repoRoot } from '../helpers/kube.js';

export const RELEASE = 'edu-platform';
export const NAMESPACE = process.env.EDU_PLATFORM_NAMESPACE ?? 'edu-node-suite';
export const CHART = path.join(repoRoot, 'charts', 'edu-platform');
/** The values files, in order (EDU_PLATFORM_VALUES: comma-separated; read when installing, after the root hooks set it). */
export const valuesFiles = (): string[] =>
  (process.env.EDU_PLATFORM_VALUES ?? path.join(CHART, 'ci', 'node-values.yaml')).split(',').filter(Boolean);
const SECURE_VALUES = path.join(repoRoot, 'k8s-tests', 'platform', 'node-secure-values.yaml');
export const JOB = `${RELEASE}-docx-parser`;
export const WORKERS = `${JOB}-workers`;
/** Every label the chart puts on what it creates carries this instance. */
export const INSTANCE = `app.kubernetes.io/instance=${RELEASE}`;

export interface PodJson {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status: { phase?: string; conditions?: Array<{ type: string; status: string }> };
}

export const ns = (args: string[]): string[] => ['-n', NAMESPACE, ...args];

export async function getJson<T>(args: string[]): Promise<T> {
  return JSON.parse(await kubectl(ns([...args, '-o', 'json']))) as T;
}

export async function pods(selector = INSTANCE): Promise<PodJson[]> {
  return (await getJson<{ items: PodJson[] }>(['get', 'pods', '-l', selector])).items;
}

export const isReady = (p: PodJson): boolean =>
  !p.metadata.deletionTimestamp && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The secure profile's env lines (node-setup.ts exports them as EDU_SECURE_*), when it runs. */
export function secureEnv(name: string): string | undefined {
  return process.env[`EDU_SECURE_${name}`];
}

const secret = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  type: 'Opaque',
  stringData: data,
});

/** The Secrets the suite makes for node-secure-values.yaml: the admin's, not the release's (uninstall keeps them). */
export const SUITE_SECRETS = ['edu-secure-ca', 'edu-secure-mongodb-client', 'edu-kafka-credentials'];

/**
 * Whether a `kubectl get -o name` line is the MongoDB stand-in kind-setup.ts runs in the suite's
 * namespace without a registry (k8s-tests/kind/mongo-standin.yaml: the admin's store, like the Secrets).
 */
export const isSuiteStore = (line: string): boolean => /^[a-z.]+\/mongodb-standin(-[a-z0-9]+)*$/.test(line);

/** Creates (or updates) the Secrets node-secure-values.yaml names, from the secure profile's files. */
async function applySecureSecrets(): Promise<void> {
  const file = (key: string) => readFileSync(secureEnv(key) ?? '', 'utf8');
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } };
  await kubectl(['apply', '-f', '-'], { input: JSON.stringify(namespace) });
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      secret(SUITE_SECRETS[0]!, { 'ca.crt': file('SECURE_CA_FILE') }),
      secret(SUITE_SECRETS[1]!, {
        'tls.crt': file('SECURE_CLIENT_CERT_FILE'),
        'tls.key': file('SECURE_CLIENT_KEY_FILE'),
      }),
      secret(SUITE_SECRETS[2]!, {
        username: secureEnv('KAFKA_SASL_USERNAME') ?? '',
        password: secureEnv('KAFKA_SASL_PASSWORD') ?? '',
      }),
    ],
  };
  await kubectl(ns(['apply', '-f', '-']), { input: JSON.stringify(list) });
}

/** Whether this run installs against the secure profile (the local node; not an external cluster). */
export const againstSecureStores = (): boolean =>
  Boolean(secureEnv('KAFKA_SASL_PASSWORD')) && !process.env.EDU_PLATFORM_VALUES;

/** `helm upgrade --install --wait`: every Deployment and StatefulSet of the release Ready. */
export async function install(extra: string[] = []): Promise<string> {
  const args = ['upgrade', '--install', RELEASE, CHART, '-n', NAMESPACE, '--create-namespace'];
  for (const file of valuesFiles()) args.push('-f', file);
  if (againstSecureStores()) {
    await applySecureSecrets();
    args.push('-f', SECURE_VALUES);
  }
  return helm([...args, ...extra, '--wait', '--timeout', '12m'], { timeoutMs: 13 * 60_000 });
}

const forwards = new Map<string, Promise<PortForward>>();

/** A component's Service port as kubectl port-forward sees it. */
async function servicePort(component: string): Promise<number> {
  const svc = await getJson<{ spec: { ports: Array<{ port: number }> } }>([
    'get',
    'service',
    `${RELEASE}-${component}`,
  ]);
  return svc.spec.ports[0]!.port;
}

/**
 * `http://127.0.0.1:<port>` of a component's Service through `kubectl port-forward`, as a laptop
 * reaches kind: one forward per component for the whole run (restarted on the same port if kubectl
 * exits, e.g. when its pod is replaced), stopped by the root teardown. A forward pins one pod; the
 * rolling upgrade's steady stream goes through relayUrl() instead, which keeps the Service's balancing.
 */
export async function serviceUrl(component: string): Promise<string> {
  let pending = forwards.get(component);
  if (!pending) {
    pending = servicePort(component).then((port) =>
      forward({ namespace: NAMESPACE, resource: `svc/${RELEASE}-${component}`, remotePort: port }),
    );
    forwards.set(component, pending);
    pending.catch(() => forwards.delete(component));
  }
  const f = await pending;
  await f.ready();
  return f.url;
}

export async function internalToken(): Promise<string> {
  const secret = await getJson<{ data: Record<string, string> }>(['get', 'secret', `${RELEASE}-secrets`]);
  return Buffer.from(secret.data.INTERNAL_API_TOKEN ?? '', 'base64').toString('utf8');
}

export interface JobStatus {
  desiredWorkers?: number;
  readyWorkers?: number;
  queue?: { waiting?: number; active?: number; totalPending?: number };
}

export async function jobStatus(): Promise<JobStatus> {
  return (await getJson<{ status?: JobStatus }>(['get', 'dij', JOB])).status ?? {};
}

export async function workerReplicas(): Promise<{ spec: number; ready: number }> {
  const d = await getJson<{ spec: { replicas?: number }; status: { readyReplicas?: number } }>([
    'get',
    'deployment',
    WORKERS,
  ]);
  return { spec: d.spec.replicas ?? 0, ready: d.status.readyReplicas ?? 0 };
}
