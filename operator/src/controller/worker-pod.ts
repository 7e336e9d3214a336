import type { V1EnvVar, V1PodTemplateSpec } from '@kubernetes/client-node';
import type { WorkerPolicy } from './worker-policy.js';

// The worker pod as the operator builds it: everything that makes it safe (identity, security
// context, volumes, credentials, the program) comes from here and the policy, never from a job.

/** The one program a worker runs (the platform image runs every component). */
export const WORKER_ARGS = ['node', 'dist/services/cli.js', 'docx-worker'];

/** The worker container's fields that passed the allow-list. */
export interface WorkerContainer {
  name: string;
  image: string;
  imagePullPolicy?: string;
  env: V1EnvVar[];
  resources: { requests?: Record<string, string>; limits: Record<string, string> };
}

type Obj = Record<string, unknown>;

export function secretEnv(policy: WorkerPolicy): V1EnvVar[] {
  return policy.secretEnv.map((s) => ({ name: s.name, valueFrom: { secretKeyRef: { name: s.secret, key: s.key } } }));
}

export function podSpec(policy: WorkerPolicy, scheduling: Obj, c: WorkerContainer): V1PodTemplateSpec['spec'] {
  const ids = compact({ runAsUser: policy.runAsUser, runAsGroup: policy.runAsGroup, fsGroup: policy.fsGroup });
  return {
    ...scheduling,
    serviceAccountName: policy.serviceAccountName,
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    ...(policy.imagePullSecrets.length > 0
      ? { imagePullSecrets: policy.imagePullSecrets.map((name) => ({ name })) }
      : {}),
    securityContext: { runAsNonRoot: true, ...ids, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      {
        name: c.name,
        image: c.image,
        ...(c.imagePullPolicy ? { imagePullPolicy: c.imagePullPolicy } : {}),
        args: WORKER_ARGS,
        ...(policy.configMapName ? { envFrom: [{ configMapRef: { name: policy.configMapName } }] } : {}),
        env: c.env,
        resources: c.resources,
        securityContext: {
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          privileged: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        },
        volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
      },
    ],
    volumes: [{ name: 'tmp', emptyDir: { sizeLimit: policy.tmpSizeLimit } }],
  } as V1PodTemplateSpec['spec'];
}

function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
