import type { V1Deployment } from '@kubernetes/client-node';
import type { DocxImportJob, DocxImportJobStatus, ScalingSpec } from '../../src/api/docx-import-job.js';
import { desiredDeployment, workerTemplate } from '../../src/controller/worker-deployment.js';
import type { WorkerPolicy } from '../../src/controller/worker-policy.js';
import type { QueueReading } from '../../src/queue-lag.js';

export function aJob(
  overrides: {
    scaling?: Partial<ScalingSpec>;
    status?: DocxImportJobStatus;
    generation?: number;
    concurrency?: number;
  } = {},
): DocxImportJob {
  return {
    apiVersion: 'imports.edu-platform.io/v1alpha1',
    kind: 'DocxImportJob',
    metadata: { name: 'parse', namespace: 'ns1', uid: 'uid-1', generation: overrides.generation ?? 1 },
    spec: {
      queue: { topic: 'docx-import.jobs.v1', consumerGroup: 'parsers' },
      worker: {
        concurrency: overrides.concurrency ?? 1,
        template: { spec: { containers: [{ name: 'worker', image: 'edu/worker:1' }] } },
      },
      scaling: {
        minWorkers: 1,
        maxWorkers: 10,
        jobsPerWorker: 5,
        scaleDownDelaySeconds: 60,
        scaleDownStep: 1,
        ...overrides.scaling,
      },
    },
    ...(overrides.status ? { status: overrides.status } : {}),
  };
}

/** The operator's worker settings in the tests: the factory's image repository is the allowed one. */
export function aPolicy(overrides: Partial<WorkerPolicy> = {}): WorkerPolicy {
  return {
    serviceAccountName: 'edu-workers',
    allowedImages: ['edu/worker'],
    imagePullSecrets: [],
    configMapName: 'worker-config',
    secretEnv: [{ name: 'WORKER_API_TOKEN', secret: 'edu-secrets', key: 'WORKER_API_TOKEN' }],
    secretFiles: [],
    healthPort: 8081,
    podLabels: { 'app.kubernetes.io/name': 'edu-platform', 'app.kubernetes.io/instance': 'edu' },
    runAsUser: 10001,
    tmpSizeLimit: '64Mi',
    maxResources: { cpu: '2', memory: '2Gi', 'ephemeral-storage': '1Gi' },
    ...overrides,
  };
}

/** The Deployment the operator wants for `job` under the test policy (the job must be allowed). */
export function desiredFor(job: DocxImportJob, replicas: number, policy = aPolicy()): V1Deployment {
  const template = workerTemplate(job, policy);
  if (!template.ok) throw new Error(`test job refused: ${template.problems.join('; ')}`);
  return desiredDeployment(job, replicas, template.template);
}

/** A Deployment as the API server would return it after the operator applied it. */
export function anOwnedDeployment(job: DocxImportJob, replicas: number, readyReplicas?: number): V1Deployment {
  const d = desiredFor(job, replicas);
  return { ...d, status: readyReplicas === undefined ? {} : { readyReplicas } };
}

export function depth(totalPending: number, oldestWaitingSeconds = 0, partitions?: number): QueueReading {
  return partitions === undefined
    ? { ok: true, totalPending, oldestWaitingSeconds }
    : { ok: true, totalPending, oldestWaitingSeconds, partitions };
}

export const failedReading: QueueReading = {
  ok: false,
  reason: 'KafkaUnavailable',
  message: 'Connection refused 127.0.0.1:1',
};

export const at = (iso: string): Date => new Date(iso);
