// The WorkerPolicy's shape apart from the code that applies it (worker-policy.ts), so the pod
// builder (worker-pod.ts) reads it without importing that code, which imports the builder.
import type { SecretFile } from './secret-files.js';

/** The resources a worker pod's requests and limits may name. */
export const RESOURCE_NAMES = ['cpu', 'memory', 'ephemeral-storage'] as const;
/** One of RESOURCE_NAMES. */
export type ResourceName = (typeof RESOURCE_NAMES)[number];

/** What the worker pod is, decided by the operator's configuration, never by the job. */
export interface WorkerPolicy {
  /** The ServiceAccount of every worker pod (its token is never mounted). */
  serviceAccountName: string;
  /** The image when the job names none. */
  defaultImage?: string;
  /** Images a job may name: an exact reference, or a repository (then any tag or digest of it). */
  allowedImages: readonly string[];
  imagePullSecrets: readonly string[];
  /** ConfigMap every worker container reads its environment from. */
  configMapName?: string;
  /** Variables read from Secrets (the worker's credentials). */
  secretEnv: ReadonlyArray<{ name: string; secret: string; key: string }>;
  /** Secret keys mounted read-only as files (TLS CAs and client certificates). */
  secretFiles: readonly SecretFile[];
  /** Port of the worker's /healthz and /readyz (the probes), passed to it as WORKER_HEALTH_PORT. */
  healthPort: number;
  /** Labels of every worker pod (network policies select on them); the job cannot set or change them. */
  podLabels: Readonly<Record<string, string>>;
  runAsUser?: number;
  runAsGroup?: number;
  fsGroup?: number;
  /** sizeLimit of the emptyDir at /tmp (the root filesystem is read-only). */
  tmpSizeLimit: string;
  /** Upper bound of every request and limit; also the limit when the job sets none (cpu excepted). */
  maxResources: Readonly<Record<ResourceName, string>>;
}
