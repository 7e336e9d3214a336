// For scripts/images.sh verify kafka: turns the chart's rendered Kafka ConfigMap and StatefulSet
// (DIR/chart.yaml, from `helm template`) into what runs the image as the chart would, outside a
// cluster: DIR/config/server.properties (advertised on 127.0.0.1:9092 instead of the pod's DNS
// name), DIR/config/start.sh, and DIR/run.args, one buildah run argument a line (`--env=K=V`, the
// chart's `--user=uid:gid`) and a last line `CMD=<the container's command as JSON>`.
//   node --import tsx scripts/lib/chart-kafka.ts DIR
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

interface Rendered {
  kind?: string;
  data?: Record<string, string>;
  spec?: {
    template: {
      spec: {
        securityContext: { runAsUser: number; runAsGroup: number };
        containers: Array<{ command: string[]; env: Array<{ name: string; value: string }> }>;
      };
    };
  };
}

/** The ConfigMap's data and the StatefulSet's pod spec of the render; throws when either is missing. */
function chartKafka(dir: string): {
  data: Record<string, string>;
  pod: NonNullable<Rendered['spec']>['template']['spec'];
} {
  const docs = parseAllDocuments(readFileSync(path.join(dir, 'chart.yaml'), 'utf8')).map(
    (d) => d.toJS() as Rendered | null,
  );
  const data = docs.find((d) => d?.kind === 'ConfigMap')?.data;
  const pod = docs.find((d) => d?.kind === 'StatefulSet')?.spec?.template.spec;
  if (!data || !pod) throw new Error(`${dir}/chart.yaml: no Kafka ConfigMap and StatefulSet`);
  return { data, pod };
}

function main(dir: string): void {
  const { data, pod } = chartKafka(dir);
  mkdirSync(path.join(dir, 'config'));
  const properties = (data['server.properties'] ?? '').replace(
    /^advertised\.listeners=.*$/m,
    'advertised.listeners=PLAINTEXT://127.0.0.1:9092',
  );
  writeFileSync(path.join(dir, 'config', 'server.properties'), properties);
  writeFileSync(path.join(dir, 'config', 'start.sh'), data['start.sh'] ?? '');
  const container = pod.containers[0]!;
  const lines = container.env.map((e) => `--env=${e.name}=${e.value}`);
  lines.push(`--user=${pod.securityContext.runAsUser}:${pod.securityContext.runAsGroup}`);
  lines.push(`CMD=${JSON.stringify(container.command)}`);
  writeFileSync(path.join(dir, 'run.args'), `${lines.join('\n')}\n`);
}

main(process.argv[2] ?? '.');
