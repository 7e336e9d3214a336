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
