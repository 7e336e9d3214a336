// A steady stream through a Service while its pods roll, from outside the cluster: a port-forward
// pins one pod (it resolves the Service once), so it goes to a small TCP relay pod that does not
// roll, and the relay dials the Service's DNS name for every connection, so kube-proxy balances
// over the ready pods as it would for any client. The relay runs the release's own image (node) with
// a script from a ConfigMap, carries no label of the chart (no Service selects it, no policy of the
// chart confines it) but RELAY_LABELS, which the kind values admit through networkPolicy.extraIngress
// (the local node's values admit every source: allowExternalIngress).
import { kubectl } from '../helpers/cluster.js';
import { forward, type PortForward } from '../helpers/port-forward.js';
import { waitFor } from '../helpers/wait.js';
import { NAMESPACE, RELEASE, getJson, ns } from './release.js';

const NAME = 'edu-test-relay';
const PORT = 8080;
/** Keep in step with networkPolicy.extraIngress in charts/edu-platform/ci/kind-values.yaml. */
export const RELAY_LABELS = { 'edu-platform.io/test-relay': 'true' };

// Byte for byte, both ways, one upstream connection per client connection; either end closing or
// failing closes the other, so a server ending a keep-alive connection is seen by the client.
const SCRIPT = `import net from 'node:net';
const host = process.env.TARGET_HOST;
const port = Number(process.env.TARGET_PORT);
const server = net.createServer((client) => {
  const upstream = net.connect({ host, port });
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
  client.pipe(upstream);
  upstream.pipe(client);
});
server.listen(${PORT}, '0.0.0.0', () => console.log('relay :${PORT} -> ' + host + ':' + port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

interface ContainerJson {
  image: string;
  imagePullPolicy?: string;
}

export interface Relay {
  url: string;
  stop(): Promise<void>;
}

/** Starts the relay in front of a component's Service and a port-forward to it; resolves once both are up. */
export async function relayTo(component: string): Promise<Relay> {
  const service = `${RELEASE}-${component}`;
  const svc = await getJson<{ spec: { ports: Array<{ port: number }> } }>(['get', 'service', service]);
  const deployment = await getJson<{ spec: { template: { spec: { containers: ContainerJson[] } } } }>([
    'get',
    'deployment',
    service,
  ]);
  const { image, imagePullPolicy } = deployment.spec.template.spec.containers[0]!;
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: NAME, labels: RELAY_LABELS },
    data: { 'relay.mjs': SCRIPT },
  };
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: NAME, labels: RELAY_LABELS },
    spec: {
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 5,
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 10001,
        runAsGroup: 10001,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      containers: [
        {
          name: 'relay',
          image,
          imagePullPolicy: imagePullPolicy ?? 'IfNotPresent',
          command: ['node', '/relay/relay.mjs'],
          env: [
            { name: 'TARGET_HOST', value: `${service}.${NAMESPACE}.svc.cluster.local` },
            { name: 'TARGET_PORT', value: String(svc.spec.ports[0]!.port) },
          ],
          ports: [{ name: 'relay', containerPort: PORT }],
          readinessProbe: { tcpSocket: { port: PORT }, periodSeconds: 2 },
          resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '128Mi' } },
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          },
          volumeMounts: [{ name: 'script', mountPath: '/relay', readOnly: true }],
        },
      ],
      volumes: [{ name: 'script', configMap: { name: NAME } }],
    },
  };
  await kubectl(ns(['apply', '-f', '-']), {
    input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [configMap, pod] }),
  });
  let pf: PortForward | undefined;
  const remove = async () => {
    await pf?.stop();
    await kubectl(ns(['delete', 'pod,configmap', NAME, '--ignore-not-found', '--wait=true', '--timeout=60s'])).catch(
      (err: Error) => process.stderr.write(`relay cleanup: ${err.message}\n`),
    );
  };
  try {
    await kubectl(ns(['wait', '--for=condition=Ready', `pod/${NAME}`, '--timeout=180s']), { timeoutMs: 190_000 });
    pf = await forward({ namespace: NAMESPACE, resource: `pod/${NAME}`, remotePort: PORT });
    const url = pf.url;
    // Through the forward and the relay to the Service: the first answer says the path is whole.
    await waitFor('an answer from the Service through the relay', async () => {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      return res.status === 200;
    });
    return { url, stop: remove };
  } catch (err) {
    const log = await kubectl(ns(['logs', NAME, '--tail=50'])).catch((e: Error) => e.message);
    await remove();
    throw new Error(`${(err as Error).message}\n----- relay log -----\n${log}`);
  }
}
