import { PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { GROUP, PLURAL, VERSION, type DocxImportJob, type DocxImportJobStatus } from '../api/docx-import-job.js';
import type { KubeClients } from '../kube/clients.js';
import { isNotFound } from '../kube/errors.js';
import { FIELD_MANAGER } from './worker-deployment.js';

/** A write refused because this process no longer holds (or can no longer vouch for) leadership. */
export class NotLeadingError extends Error {
  constructor(kind: string) {
    super(`not writing the ${kind}: leadership lost or past its renew deadline`);
    this.name = 'NotLeadingError';
  }
}

// The only writes the operator makes to the objects it reconciles (Events and the Lease aside).

/** The Deployment of that name, whoever owns it, or undefined when there is none. */
export async function readDeployment(
  clients: KubeClients,
  namespace: string,
  name: string,
): Promise<V1Deployment | undefined> {
  try {
    return await clients.apps.readNamespacedDeployment({ name, namespace });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * Server-side apply of the whole desired Deployment, only ever to one the operator already
 * controls (observed with its label and owner reference): fields we stop setting are removed,
 * and `force` takes back the replicas from anyone who scaled it by hand (the operator is the one
 * owner of that number). A ValidatingAdmissionPolicy in the chart refuses the operator any write
 * to a Deployment without its label and owner, should this ever be wrong.
 */
export function applyDeployment(clients: KubeClients, desired: V1Deployment): Promise<V1Deployment> {
  return clients.apps.patchNamespacedDeployment(
    {
      name: desired.metadata?.name ?? '',
      namespace: desired.metadata?.namespace ?? '',
      body: desired,
      fieldManager: FIELD_MANAGER,
      force: true,
    },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  );
}

/**
 * Replaces the whole status through the status subresource with a JSON patch `add`, which also
 * removes fields the new status no longer has (a merge patch would need explicit nulls).
 */
export async function patchStatus(
  clients: KubeClients,
  job: DocxImportJob,
  status: DocxImportJobStatus,
): Promise<DocxImportJob> {
  const updated: unknown = await clients.custom.patchNamespacedCustomObjectStatus({
    group: GROUP,
    version: VERSION,
    plural: PLURAL,
    namespace: job.metadata?.namespace ?? '',
    name: job.metadata?.name ?? '',
    body: [{ op: 'add', path: '/status', value: status }],
  });
  return updated as DocxImportJob;
}
