import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { kubectl } from './cluster.js';
import type { Kube } from './kube.js';

/**
 * The namespaced permissions the operator runs with in the tests: exactly what the Helm chart's
 * operator Role must grant (a ClusterRole with the same rules when it watches all namespaces).
 * Running the operator under a ServiceAccount token with only these rules is what proves the list
 * complete: a missing verb fails the scaling tests with a 403 in the operator log.
 */
export const OPERATOR_RULES = [
  { apiGroups: ['imports.edu-platform.io'], resources: ['docximportjobs'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['imports.edu-platform.io'], resources: ['docximportjobs/status'], verbs: ['patch'] },
  // blockOwnerDeletion on the worker Deployment needs this where OwnerReferencesPermissionEnforcement runs.
  { apiGroups: ['imports.edu-platform.io'], resources: ['docximportjobs/finalizers'], verbs: ['update'] },
  // Server-side apply is a patch; owner references make the garbage collector delete, so no update or delete.
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'patch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
  {
    apiGroups: ['coordination.k8s.io'],
    resources: ['leases'],
    resourceNames: ['docx-import-operator'],
    verbs: ['get', 'update'],
  },
];

/** Creates the operator's ServiceAccount, Role and RoleBinding in `namespace`; returns a kubeconfig path for it. */
export async function operatorKubeconfig(k: Kube, namespace: string): Promise<string> {
  const name = 'docx-import-operator';
  await k.core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
  const rbac = k.kc.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createNamespacedRole({ namespace, body: { metadata: { name }, rules: OPERATOR_RULES } });
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
  });
  const token = (await kubectl(['create', 'token', name, '-n', namespace, '--duration=2h'])).trim();
  const cluster = k.kc.getCurrentCluster();
  if (!cluster) throw new Error('no current cluster in the test kubeconfig');
  const file = path.join(os.tmpdir(), `operator-${namespace}.kubeconfig`);
  const yaml = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: c\n  cluster:\n    server: ${cluster.server}\n    ${trust(cluster)}`,
    'users:',
    `- name: u\n  user:\n    token: ${token}`,
    'contexts:',
    '- name: x\n  context:\n    cluster: c\n    user: u',
    'current-context: x',
    '',
  ].join('\n');
  writeFileSync(file, yaml, { mode: 0o600 });
  return file;
}

// kubectl refuses a CA together with insecure-skip-tls-verify, so carry exactly one of them over.
function trust(cluster: { skipTLSVerify?: boolean; caData?: string; caFile?: string }): string {
  if (cluster.skipTLSVerify) return 'insecure-skip-tls-verify: true';
  if (cluster.caData) return `certificate-authority-data: ${cluster.caData}`;
  if (cluster.caFile) return `certificate-authority: ${cluster.caFile}`;
  return 'insecure-skip-tls-verify: false';
}

/** The same credentials, pointed at another address for the same server (a relay in front of it). */
export function withServer(kubeconfigFile: string, server: string): string {
  const text = readFileSync(kubeconfigFile, 'utf8').replace(/^(\s+server: ).*$/m, `$1${server}`);
  const file = kubeconfigFile.replace(/\.kubeconfig$/, `.${new URL(server).port}.kubeconfig`);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

/** The token files hold live credentials: gone with the test's namespace. */
export function removeKubeconfigs(namespace: string): void {
  for (const name of readdirSync(os.tmpdir())) {
    if (name.startsWith(`operator-${namespace}.`) && name.endsWith('.kubeconfig'))
      rmSync(path.join(os.tmpdir(), name), { force: true });
  }
}
