import { createHash } from 'node:crypto';
import type { V1Deployment, V1PodTemplateSpec } from '@kubernetes/client-node';
import { API_VERSION, GROUP, KIND, type DocxImportJob } from '../api/docx-import-job.js';
import { workerPodTemplate, type TemplateResult, type WorkerPolicy } from './worker-policy.js';

export const FIELD_MANAGER = 'docx-import-operator';
export const LABEL_JOB = `${GROUP}/job`;
export const LABEL_COMPONENT = 'app.kubernetes.io/component';
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const COMPONENT = 'docx-parser-worker';
export const ANNOTATION_TEMPLATE_HASH = `${GROUP}/template-hash`;
/** The operator watches only Deployments carrying this label. */
export const MANAGED_SELECTOR = `${LABEL_MANAGED_BY}=${FIELD_MANAGER}`;

export function deploymentName(job: DocxImportJob): string {
  return `${job.metadata?.name ?? ''}-workers`;
}

export function isControlledBy(deployment: V1Deployment, job: DocxImportJob): boolean {
  const uid = job.metadata?.uid;
  return (deployment.metadata?.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === uid);
}

/** The owning job's name, read from the controller owner reference (how Deployment events find their job). */
export function ownerJobName(deployment: V1Deployment): string | undefined {
  return deployment.metadata?.ownerReferences?.find(
    (ref) => ref.controller === true && ref.kind === KIND && ref.apiVersion === API_VERSION,
  )?.name;
}

/** The labels that select one job's worker pods. */
export function selectorLabels(job: DocxImportJob): Record<string, string> {
  return { [LABEL_JOB]: job.metadata?.name ?? '', [LABEL_COMPONENT]: COMPONENT };
}

/**
 * The worker pod template for `job` under `policy`, or the reasons it is refused. The queue
 * coordinates are injected so that the workers consume exactly the topic and group whose lag the
 * operator scales on; the job cannot set variables of those names.
 */
export function workerTemplate(job: DocxImportJob, policy: WorkerPolicy): TemplateResult {
  const { template, concurrency } = job.spec.worker;
  return workerPodTemplate(template, policy, {
    labels: selectorLabels(job),
    env: [
      { name: 'DOCX_IMPORT_TOPIC', value: job.spec.queue.topic },
      { name: 'DOCX_IMPORT_CONSUMER_GROUP', value: job.spec.queue.consumerGroup },
      { name: 'WORKER_CONCURRENCY', value: String(concurrency) },
      // The port the kubelet probes: the operator's setting, so the worker cannot listen elsewhere.
      { name: 'WORKER_HEALTH_PORT', value: String(policy.healthPort) },
    ],
  });
}

/** The worker Deployment as the operator wants it, complete, for server-side apply. */
export function desiredDeployment(job: DocxImportJob, replicas: number, template: V1PodTemplateSpec): V1Deployment {
  const name = job.metadata?.name ?? '';
  const selector = selectorLabels(job);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: deploymentName(job),
      namespace: job.metadata?.namespace,
      labels: { ...selector, [LABEL_MANAGED_BY]: FIELD_MANAGER },
      annotations: { [ANNOTATION_TEMPLATE_HASH]: templateHash(template) },
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: KIND,
          name,
          uid: job.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { replicas, selector: { matchLabels: selector }, template },
  };
}

/** Whether writing `desired` would change anything the operator owns on `observed`. */
export function needsApply(observed: V1Deployment | undefined, desired: V1Deployment): boolean {
  if (!observed) return true;
  if (observed.spec?.replicas !== desired.spec?.replicas) return true;
  const want = desired.metadata?.annotations?.[ANNOTATION_TEMPLATE_HASH];
  return observed.metadata?.annotations?.[ANNOTATION_TEMPLATE_HASH] !== want;
}

/**
 * The API server fills defaults into a Deployment's pod template, so comparing templates field by
 * field would always differ; a hash of what we asked for, kept in an annotation, says whether ours changed.
 */
export function templateHash(template: unknown): string {
  return createHash('sha256').update(stableStringify(template)).digest('hex').slice(0, 16);
}

export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
