import type { V1Container, V1EnvVar, V1PodTemplateSpec } from '@kubernetes/client-node';
import { secretFileVolumes } from './secret-files.js';
import type { WorkerPolicy } from './worker-policy-shape.js';

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

/** The port's name in the container and in the probes. */
export const HEALTH_PORT_NAME = 'health';

/**
 * /readyz: a member of the consumer group. /healthz fails when the consumer stopped or a job has been
 * in hand past the worker's own bound (which already covers the parse and HTTP timeouts), so the
 * kubelet adds only a minute of confirmation before a restart.
 */
export function workerProbes(): Pick<V1Container, 'readinessProbe' | 'livenessProbe'> {
  const get = (path: string) => ({ httpGet: { path, port: HEALTH_PORT_NAME } });
  return {
    readinessProbe: { ...get('/readyz'), periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 },
    livenessProbe: { ...get('/healthz'), periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 3 },
  };
}

export function podSpec(policy: WorkerPolicy, scheduling: Obj, c: WorkerContainer): V1PodTemplateSpec['spec'] {
  const ids = compact({ runAsUser: policy.runAsUser, runAsGroup: policy.runAsGroup, fsGroup: policy.fsGroup });
  const files = secretFileVolumes(policy.secretFiles, policy.fsGroup);
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
        ports: [{ name: HEALTH_PORT_NAME, containerPort: policy.healthPort, protocol: 'TCP' }],
        ...workerProbes(),
        resources: c.resources,
        securityContext: {
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          privileged: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        },
        volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }, ...files.mounts],
      },
    ],
    volumes: [{ name: 'tmp', emptyDir: { sizeLimit: policy.tmpSizeLimit } }, ...files.volumes],
  } as V1PodTemplateSpec['spec'];
}

function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
