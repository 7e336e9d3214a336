import type { KubernetesObject } from '@kubernetes/client-node';

// Mirrors crds/docximportjobs.imports.edu-platform.io.yaml; the CRD is the source of truth.

export const GROUP = 'imports.edu-platform.io';
export const VERSION = 'v1alpha1';
export const PLURAL = 'docximportjobs';
export const KIND = 'DocxImportJob';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** The Kafka queue the workers consume. */
export interface QueueSpec {
  /** Kafka topic holding the jobs (defaulted by the API server). */
  topic: string;
  /** Consumer group of the workers; its lag on the topic is the queue depth. */
  consumerGroup: string;
}

/**
 * The job's say in its worker pods: labels, annotations, one container's image, resources and
 * tuning variables, and scheduling fields. Kept loose on purpose: the operator checks every field
 * against its allow-list (controller/worker-policy.ts) and refuses the job over anything else.
 */
export interface WorkerPodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } & Record<string, unknown>;
  spec: {
    containers: Array<
      {
        name?: string;
        image?: string;
        imagePullPolicy?: string;
        env?: Array<{ name: string; value?: string } & Record<string, unknown>>;
        resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
      } & Record<string, unknown>
    >;
    nodeSelector?: Record<string, string>;
    priorityClassName?: string;
  } & Record<string, unknown>;
}

export interface WorkerSpec {
  /** Jobs one worker processes at once. */
  concurrency: number;
  template: WorkerPodTemplate;
}

/** Scaling policy; every field is defaulted by the API server. */
export interface ScalingSpec {
  minWorkers: number;
  maxWorkers: number;
  jobsPerWorker: number;
  scaleDownDelaySeconds: number;
  scaleDownStep: number;
}

export interface DocxImportJobSpec {
  queue: QueueSpec;
  worker: WorkerSpec;
  scaling: ScalingSpec;
}

/** A metav1.Condition. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface QueueStatus {
  totalPending: number;
  active: number;
  waiting: number;
  oldestWaitingSeconds: number;
  /** Partitions of the topic: the most workers that can have work at once. */
  partitions?: number;
  /** Messages in the queue's dead-letter topic (`<topic>.dlq`): work items the workers gave up on. */
  deadLetters?: number;
}

export interface DocxImportJobStatus {
  observedGeneration?: number;
  queue?: QueueStatus;
  desiredWorkers?: number;
  readyWorkers?: number;
  workerDeployment?: string;
  lastScaleTime?: string;
  scaleDownPendingSince?: string;
  conditions?: Condition[];
}

export interface DocxImportJob extends KubernetesObject {
  spec: DocxImportJobSpec;
  status?: DocxImportJobStatus;
}

/** Informer and queue key: namespace/name. */
export function objectKey(obj: { metadata?: { namespace?: string; name?: string } }): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
