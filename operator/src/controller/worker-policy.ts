import type { V1PodTemplateSpec } from '@kubernetes/client-node';
import { parseQuantity } from './quantity.js';
import { podSpec, secretEnv, type WorkerContainer } from './worker-pod.js';
import { RESOURCE_NAMES, type ResourceName, type WorkerPolicy } from './worker-policy-shape.js';

export { RESOURCE_NAMES, type ResourceName, type WorkerPolicy } from './worker-policy-shape.js';

// Whoever may create a DocxImportJob must not thereby run any pod they like: the worker pod is
// built by the operator from its own settings (the WorkerPolicy, configured by whoever deploys
// the operator) and the few fields of the job's template on the allow-list below. Anything else
// in the template rejects the whole job; nothing of it is copied.

/**
 * Variables a job may set, with literal values only: tuning of the worker, never an address, a
 * credential, a file path or a runtime option (NODE_OPTIONS), which could hand the worker's
 * credentials or its process to the job's author.
 */
export const JOB_ENV = new Set([
  'LOG_LEVEL',
  'DOCX_IMPORT_LIVE_POLL_MS',
  'DOCX_WORKER_LEASE_MS',
  'DOCX_WORKER_SESSION_TIMEOUT_MS',
]);

const TEMPLATE_KEYS = new Set(['metadata', 'spec']);
const METADATA_KEYS = new Set(['labels', 'annotations']);
const SPEC_KEYS = new Set([
  'containers',
  'nodeSelector',
  'tolerations',
  'affinity',
  'topologySpreadConstraints',
  'priorityClassName',
  'terminationGracePeriodSeconds',
]);
const CONTAINER_KEYS = new Set(['name', 'image', 'imagePullPolicy', 'env', 'resources']);
const PULL_POLICIES = new Set(['Always', 'IfNotPresent', 'Never']);
const MAX_VALUE = 1024;
const MAX_GRACE_SECONDS = 600;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type TemplateResult = { ok: true; template: V1PodTemplateSpec } | { ok: false; problems: string[] };

/** The worker pod template for `template` (the job's spec.worker.template), or why it is refused. */
export function workerPodTemplate(
  template: unknown,
  policy: WorkerPolicy,
  fixed: { labels: Record<string, string>; env: Array<{ name: string; value: string }> },
): TemplateResult {
  const problems: string[] = [];
  const at = 'spec.worker.template';
  const t = isObj(template) ? template : {};
  extraKeys(t, TEMPLATE_KEYS, at, problems);
  const metadata = isObj(t.metadata) ? t.metadata : {};
  extraKeys(metadata, METADATA_KEYS, `${at}.metadata`, problems);
  const labels = userMap(metadata.labels, `${at}.metadata.labels`, problems);
  const annotations = userMap(metadata.annotations, `${at}.metadata.annotations`, problems);
  const spec = isObj(t.spec) ? t.spec : {};
  extraKeys(spec, SPEC_KEYS, `${at}.spec`, problems);
  const scheduling = schedulingFields(spec, `${at}.spec`, problems);
  const container = workerContainer(spec.containers, policy, `${at}.spec.containers`, problems);
  if (problems.length > 0 || !container) return { ok: false, problems };
  const env = [...container.env, ...fixed.env.filter((e) => !JOB_ENV.has(e.name)), ...secretEnv(policy)];
  return {
    ok: true,
    template: {
      metadata: {
        labels: { ...labels, ...policy.podLabels, ...fixed.labels },
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      },
      spec: podSpec(policy, scheduling, { ...container, env }),
    },
  };
}

function extraKeys(obj: Obj, allowed: Set<string>, at: string, problems: string[]): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) problems.push(`${at}.${key}: not allowed (the operator sets it, or the worker has none)`);
  }
}

// Kubernetes' own label and annotation domains change how pods run (AppArmor, seccomp, ...), and
// edu-platform.io (the operator's group included) names the platform's selectors: a job may use none.
function reservedKey(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const domain = key.slice(0, slash);
  return [/(^|\.)kubernetes\.io$/, /(^|\.)k8s\.io$/, /(^|\.)edu-platform\.io$/].some((r) => r.test(domain));
}

function userMap(value: unknown, at: string, problems: string[]): Record<string, string> {
  if (value === undefined) return {};
  if (!isObj(value)) {
    problems.push(`${at}: must be a map of strings`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') problems.push(`${at}.${k}: must be a string`);
    else if (reservedKey(k)) problems.push(`${at}.${k}: reserved (kubernetes.io, k8s.io and edu-platform.io keys)`);
    else out[k] = v;
  }
  return out;
}

function schedulingFields(spec: Obj, at: string, problems: string[]): Obj {
  const out: Obj = {};
  const typed: Array<[string, (v: unknown) => boolean, string]> = [
    ['nodeSelector', (v) => isObj(v) && Object.values(v).every((x) => typeof x === 'string'), 'a map of strings'],
    ['tolerations', (v) => Array.isArray(v) && v.every(isObj), 'a list of tolerations'],
    ['affinity', isObj, 'an object'],
    ['topologySpreadConstraints', (v) => Array.isArray(v) && v.every(isObj), 'a list of constraints'],
    ['priorityClassName', (v) => typeof v === 'string' && !v.startsWith('system-'), 'a class outside system-*'],
    [
      'terminationGracePeriodSeconds',
      (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_GRACE_SECONDS,
      `an integer from 0 to ${MAX_GRACE_SECONDS}`,
    ],
  ];
  for (const [key, ok, what] of typed) {
    if (spec[key] === undefined) continue;
    if (ok(spec[key])) out[key] = spec[key];
    else problems.push(`${at}.${key}: must be ${what}`);
  }
  return out;
}

type Container = WorkerContainer;

function workerContainer(value: unknown, policy: WorkerPolicy, at: string, problems: string[]): Container | undefined {
  if (!Array.isArray(value) || value.length !== 1 || !isObj(value[0])) {
    problems.push(`${at}: must be exactly one container (the worker)`);
    return undefined;
  }
  const c = value[0];
  const where = `${at}[0]`;
  extraKeys(c, CONTAINER_KEYS, where, problems);
  const name = containerName(c.name, `${where}.name`, problems);
  const image = imageOf(c.image, policy, `${where}.image`, problems);
  const pullPolicy = pullPolicyOf(c.imagePullPolicy, `${where}.imagePullPolicy`, problems);
  const env = jobEnv(c.env, `${where}.env`, problems);
  const resources = boundedResources(c.resources, policy, `${where}.resources`, problems);
  if (!name || !image || !resources) return undefined;
  return { name, image, ...pullPolicy, env, resources };
}

function containerName(value: unknown, at: string, problems: string[]): string | undefined {
  const name = value ?? 'worker';
  if (typeof name === 'string' && /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name)) return name;
  problems.push(`${at}: must be a DNS label`);
  return undefined;
}

function pullPolicyOf(value: unknown, at: string, problems: string[]): { imagePullPolicy?: string } {
  if (value === undefined) return {};
  if (typeof value === 'string' && PULL_POLICIES.has(value)) return { imagePullPolicy: value };
  problems.push(`${at}: must be Always, IfNotPresent or Never`);
  return {};
}

/** Whether `image` is one of `allowed`: the same reference, or a tag or digest of an allowed repository. */
export function imageAllowed(image: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => image === a || image.startsWith(`${a}:`) || image.startsWith(`${a}@`));
}

function imageOf(value: unknown, policy: WorkerPolicy, at: string, problems: string[]): string | undefined {
  const image = value ?? policy.defaultImage;
  if (typeof image !== 'string' || image === '') {
    problems.push(`${at}: required (the operator has no default worker image)`);
    return undefined;
  }
  const allowed = policy.defaultImage ? [policy.defaultImage, ...policy.allowedImages] : policy.allowedImages;
  if (/\s/.test(image) || !imageAllowed(image, allowed)) {
    problems.push(`${at}: ${image} is not an allowed worker image (${allowed.join(', ') || 'none configured'})`);
    return undefined;
  }
  return image;
}

function jobEnv(value: unknown, at: string, problems: string[]): Array<{ name: string; value: string }> {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`${at}: must be a list`);
    return [];
  }
  const out: Array<{ name: string; value: string }> = [];
  value.forEach((e: unknown, i) => {
    const entry = isObj(e) ? e : {};
    const name = String(entry.name);
    if (!JOB_ENV.has(name)) problems.push(`${at}[${i}].name: ${name} is not one of ${[...JOB_ENV].join(', ')}`);
    else if (Object.keys(entry).some((k) => k !== 'name' && k !== 'value'))
      problems.push(`${at}[${i}]: only a literal value is allowed (no valueFrom)`);
    else if (typeof entry.value !== 'string' || entry.value.length > MAX_VALUE)
      problems.push(`${at}[${i}].value: must be a string of at most ${MAX_VALUE} characters`);
    else out.push({ name, value: entry.value });
  });
  return out;
}

function boundedResources(
  value: unknown,
  policy: WorkerPolicy,
  at: string,
  problems: string[],
): Container['resources'] | undefined {
  const r = value === undefined ? {} : value;
  if (!isObj(r)) {
    problems.push(`${at}: must be an object`);
    return undefined;
  }
  extraKeys(r, new Set(['requests', 'limits']), at, problems);
  const requests = boundedList(r.requests, policy, `${at}.requests`, problems);
  const limits = boundedList(r.limits, policy, `${at}.limits`, problems);
  if (!requests || !limits) return undefined;
  // A worker always has a memory and disk ceiling: the bound when the job names none.
  const ceilings = {
    memory: policy.maxResources.memory,
    'ephemeral-storage': policy.maxResources['ephemeral-storage'],
    ...limits,
  };
  return { ...(Object.keys(requests).length > 0 ? { requests } : {}), limits: ceilings };
}

function boundedList(
  value: unknown,
  policy: WorkerPolicy,
  at: string,
  problems: string[],
): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isObj(value)) {
    problems.push(`${at}: must be a map of quantities`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [name, q] of Object.entries(value)) {
    const bound = policy.maxResources[name as ResourceName];
    const amount = parseQuantity(q);
    if (bound === undefined) problems.push(`${at}.${name}: only ${RESOURCE_NAMES.join(', ')} are allowed`);
    else if (amount === undefined || amount < 0) problems.push(`${at}.${name}: not a quantity`);
    else if (amount > (parseQuantity(bound) ?? 0))
      problems.push(`${at}.${name}: ${String(q)} is above the bound ${bound}`);
    else out[name] = String(q);
  }
  return out;
}
