import { kubectl } from './cluster.js';

/** What a failed cluster test prints: the operator's log and the namespace's Events and objects. */
export async function dumpOnFailure(
  namespace: string,
  operatorLogs: Array<{ name: string; log: string }>,
): Promise<void> {
  const out: string[] = [];
  for (const { name, log } of operatorLogs) {
    const lines = log.split('\n');
    out.push(
      `----- ${name} log (last ${Math.min(lines.length, 400)} of ${lines.length} lines) -----`,
      ...lines.slice(-400),
    );
  }
  const sections: Array<[string, string[]]> = [
    ['events', ['get', 'events', '-n', namespace, '--sort-by=.lastTimestamp']],
    ['docximportjobs', ['get', 'dij', '-n', namespace, '-o', 'yaml']],
    ['deployments', ['get', 'deployments', '-n', namespace, '-o', 'wide']],
    ['leases', ['get', 'leases', '-n', namespace, '-o', 'yaml']],
  ];
  for (const [title, args] of sections) {
    out.push(
      `----- ${title} in ${namespace} -----`,
      await kubectl(args).catch((err: Error) => `(could not get ${title}: ${err.message})`),
    );
  }
  process.stderr.write(`${out.join('\n')}\n`);
}

interface PodState {
  metadata: { name: string; namespace: string };
  status: {
    phase?: string;
    conditions?: Array<{ type: string; status: string }>;
    containerStatuses?: Array<{ name: string; ready: boolean; restartCount: number }>;
  };
}

/**
 * What a failed test on a real cluster (kind) prints: every pod, the suite namespace's and
 * kube-system's Events, the description and logs (and the previous instance's, after a restart) of
 * each pod that is not Ready or has restarted, in the suite namespace and kube-system, and the end of
 * every other log in the suite namespace.
 */
export async function dumpCluster(namespace: string, what: string): Promise<void> {
  const get = (args: string[]) => kubectl(args, { timeoutMs: 30_000 }).catch((err: Error) => `(${err.message})`);
  const out: string[] = [`===== cluster state after the failure of: ${what} =====`];
  out.push('----- pods, every namespace -----', await get(['get', 'pods', '-A', '-o', 'wide']));
  for (const ns of [namespace, 'kube-system']) {
    out.push(`----- events in ${ns} -----`, await get(['get', 'events', '-n', ns, '--sort-by=.lastTimestamp']));
  }
  for (const ns of [namespace, 'kube-system']) {
    const list = await kubectl(['get', 'pods', '-n', ns, '-o', 'json'], { timeoutMs: 30_000 })
      .then((s) => (JSON.parse(s) as { items: PodState[] }).items)
      .catch(() => [] as PodState[]);
    for (const pod of list) {
      const statuses = pod.status.containerStatuses ?? [];
      const unhealthy =
        pod.status.phase !== 'Succeeded' &&
        (statuses.length === 0 || statuses.some((c) => !c.ready || c.restartCount > 0));
      const name = pod.metadata.name;
      // The suite's own healthy components: the end of each log says what it last did.
      if (!unhealthy && ns === namespace) {
        out.push(`----- ${ns}/${name} log (last 40 lines) -----`, await get(['logs', '-n', ns, name, '--tail=40']));
      }
      if (!unhealthy) continue;
      out.push(
        `----- ${ns}/${name} (${pod.status.phase ?? '?'}) -----`,
        await get(['describe', 'pod', '-n', ns, name]),
        `----- ${ns}/${name} log (last 150 lines) -----`,
        await get(['logs', '-n', ns, name, '--all-containers', '--tail=150']),
      );
      if (statuses.some((c) => c.restartCount > 0)) {
        out.push(
          `----- ${ns}/${name} previous log -----`,
          await get(['logs', '-n', ns, name, '--all-containers', '--previous', '--tail=100']),
        );
      }
    }
  }
  process.stderr.write(`${out.join('\n')}\n`);
}
