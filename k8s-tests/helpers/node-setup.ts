// Mocha root hooks for the node suite (k8s-tests/node.mocharc.json): the platform running in real
// pods. On this Docker-less machine they bring up, each once per run and with a lease on this
// process: the test profile's MongoDB stand-in (the chart's MongoDB, reached through the bridge
// gateway), the local node with its control plane (scripts/node.sh), the policy controller
// (scripts/netpol.sh), the images (scripts/images.sh builds what changed and imports it), and the
// secure profile (scripts/infra.sh --profile secure): the SASL_SSL Kafka and the TLS MongoDB proxy
// the release is installed against, their CA and credentials exported as EDU_SECURE_* for the suite.
// With EDU_NODE_EXTERNAL=1 the cluster is whatever KUBECONFIG names and nothing is brought up;
// EDU_PLATFORM_VALUES then names the chart values (kind has its own hooks: kind-setup.ts).
import { exportLines, runScript } from './provision.js';
import { armExitWatchdog } from '../../services/kit/test/support/exit-watchdog.js';
import { stopAllForwards } from './port-forward.js';

const lease = process.env.EDU_KEEP_INFRA === '1' ? [] : ['--lease', String(process.pid)];
const started: Array<() => void> = [];

function upThisMachine(): void {
  exportLines(runScript('infra.sh', ['up', '--profile', 'test', ...lease]), ['MONGODB_URI', 'KAFKA_BROKERS']);
  started.push(() => runScript('infra.sh', ['down', '--profile', 'test', ...lease]));
  const secure = runScript('infra.sh', ['up', '--profile', 'secure', ...lease]);
  started.push(() => runScript('infra.sh', ['down', '--profile', 'secure', ...lease]));
  for (const line of secure.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) process.env[`EDU_SECURE_${line.slice(0, eq)}`] = line.slice(eq + 1);
  }
  exportLines(runScript('node.sh', ['up', ...lease]), ['KUBECONFIG', 'NODE_HOST_IP', 'NODE_NAME']);
  started.push(() => runScript('node.sh', ['down', ...lease]));
  runScript('netpol.sh', ['up', ...lease]);
  started.push(() => runScript('netpol.sh', ['down', ...lease]));
  runScript('images.sh', ['build', 'all', '--tag', 'dev']);
  process.env.EDU_NODE = '1';
}

export const mochaHooks = {
  beforeAll(this: Mocha.Context): void {
    this.timeout(60 * 60_000);
    if (process.env.EDU_NODE_EXTERNAL === '1') return;
    upThisMachine();
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(300_000);
    await stopAllForwards();
    // Armed once the teardown is done: its synchronous stops would otherwise eat the grace.
    const stops = process.env.EDU_KEEP_INFRA === '1' ? [] : started.reverse();
    for (const stop of stops) {
      try {
        stop();
      } catch (err) {
        console.error(`node suite teardown: ${(err as Error).message}`);
      }
    }
    armExitWatchdog();
  },
};
