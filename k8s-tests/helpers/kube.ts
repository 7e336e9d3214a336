import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  type V1Deployment,
} from '@kubernetes/client-node';
import { GROUP, PLURAL, VERSION, type DocxImportJob } from '../../operator/src/api/docx-import-job.js';
import { kubeconfigPath, kubectl } from './cluster.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CRD_FILE = path.join(repoRoot, 'crds', 'docximportjobs.imports.edu-platform.io.yaml');
export const CRD_NAME = 'docximportjobs.imports.edu-platform.io';

export interface Kube {
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  custom: CustomObjectsApi;
  coordination: CoordinationV1Api;
}

export function kube(): Kube {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath());
  return {
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    coordination: kc.makeApiClient(CoordinationV1Api),
  };
}

export const uniqueSuffix = (): string => randomBytes(3).toString('hex');

/** Installs (or updates) the CRD from crds/ and waits until the API server serves it. */
export async function installCrd(): Promise<void> {
  await kubectl(['apply', '--server-side', '--force-conflicts', '-f', CRD_FILE]);
  await kubectl(['wait', '--for=condition=Established', '--timeout=120s', `crd/${CRD_NAME}`]);
}

export async function createNamespace(k: Kube, prefix: string): Promise<string> {
  const name = `${prefix}-${uniqueSuffix()}`;
  await k.core.createNamespace({ body: { metadata: { name, labels: { 'edu-platform.io/test': 'k8s-tests' } } } });
  return name;
}

/** Best effort: without a namespace controller the namespace stays Terminating, which is harmless. */
export async function deleteNamespace(k: Kube, name: string): Promise<void> {
  await k.core.deleteNamespace({ name }).catch(() => undefined);
}

export function getJob(k: Kube, namespace: string, name: string): Promise<DocxImportJob> {
  return k.custom.getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    namespace,
    name,
  }) as Promise<DocxImportJob>;
}

export async function createJob(k: Kube, job: DocxImportJob): Promise<DocxImportJob> {
  return (await k.custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    namespace: job.metadata?.namespace ?? '',
    body: job,
  })) as DocxImportJob;
}

export async function readDeployment(k: Kube, namespace: string, name: string): Promise<V1Deployment | undefined> {
  try {
    return await k.apps.readNamespacedDeployment({ name, namespace });
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}

export interface EventLine {
  reason: string;
  type: string;
  message: string;
  object: string;
  at: string;
}

export async function namespaceEvents(k: Kube, namespace: string): Promise<EventLine[]> {
  const list = await k.core.listNamespacedEvent({ namespace });
  return list.items
    .map((e) => ({
      reason: e.reason ?? '',
      type: e.type ?? '',
      message: e.message ?? '',
      object: `${e.involvedObject.kind}/${e.involvedObject.name}`,
      at: String(e.lastTimestamp?.toISOString?.() ?? e.eventTime ?? ''),
    }))
    .sort((a, b) => a.at.localeCompare(b.at));
}
