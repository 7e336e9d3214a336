// Mocha root hooks for the kind suite (k8s-tests/kind.mocharc.json): the node suite's platform and
// policy tests on a kind cluster, reached the way a laptop reaches it (kubectl port-forward, never
// a ClusterIP from the host). Once per run, with a lease on this process:
//   - scripts/kind.sh up: the cluster (created, or reused by name), its KUBECONFIG, KIND_CLUSTER and
//     KIND_PROVIDER exported;
//   - scripts/kind-platform.sh images: the images built and loaded (Docker: `docker build` of the
//     platform image, Kafka and MongoDB pulled by the cluster; podman, no registry: the platform,
//     Kafka, MongoDB stand-in and kube-router images built here and loaded from their archives);
//     without a registry also the network-policy test's echo image (scripts/netpol.sh build);
//   - scripts/kind-platform.sh addons: podman only, kube-router enforcing NetworkPolicies, Ready;
//   - scripts/kind-platform.sh standin: podman only, the MongoDB stand-in in the suite's namespace
//     (edu-kind-suite-<pid>: one per run, deleted at the end);
//   - EDU_PLATFORM_VALUES: scripts/kind-platform.sh values (ci/kind-values.yaml, and without a
//     registry ci/kind-local-values.yaml over it).
// EDU_KIND=1 tells the tests where they run. A failed test (or setup) writes the cluster's pods,
// events and the failing components' logs to stderr, the test log. The teardown stops every
// port-forward, gives the lease back (scripts/kind.sh down deletes the cluster only when this run
// created it and no other lease is left; EDU_KEEP_INFRA=1 keeps it) and arms the exit watchdog last.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportLines, runScript } from './provision.js';
import { armExitWatchdog } from '../../services/kit/test/support/exit-watchdog.js';
import { kubectl } from './cluster.js';
import { dumpCluster } from './dump-on-failure.js';
import { stopAllForwards } from './port-forward.js';

const lease = process.env.EDU_KEEP_INFRA === '1' ? [] : ['--lease', String(process.pid)];
const started: Array<() => void> = [];
/** The image tag `make kind-load` and `make kind-test` use: one tag everywhere. */
const TAG = process.env.EDU_IMAGE_TAG ?? 'dev';

// Read by k8s-tests/platform/release.ts when the spec files load, after this file. One namespace
// per run: runs sharing a cluster (a lease each) never install over each other's release.
process.env.EDU_PLATFORM_NAMESPACE ??= `edu-kind-suite-${process.pid}`;
const namespace = process.env.EDU_PLATFORM_NAMESPACE;

/**
 * The network-policy test's echo image (scripts/netpol.sh builds it, Go from the module proxy)
 * loaded into kind; undefined when loaded, else why the test cannot run. Without a registry it is
 * built (root, as the rest here); on a laptop it is loaded only if a build already left it.
 */
function loadEchoImage(provider: string): string | undefined {
  if (provider === 'podman') runScript('netpol.sh', ['build']);
  let env = '';
  try {
    env = runScript('netpol.sh', ['env']);
  } catch (err) {
    if (provider === 'podman') throw err;
    return `scripts/netpol.sh env failed here (${(err as Error).message.split('\n')[0]})`;
  }
  const version = /^NETPOL_CONTROLLER=kube-router (\S+)$/m.exec(env)?.[1];
  const cache = process.env.EDU_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'edu-platform');
  const archive = path.join(cache, `netpol-kube-router-${version ?? '?'}`, 'images', 'echo.tar');
  if (!existsSync(archive)) return `the echo image is not built (${archive}: run scripts/netpol.sh build)`;
  runScript('kind.sh', ['load', archive]);
  return undefined;
}

function upKind(): void {
  exportLines(runScript('kind.sh', ['up', ...lease]), ['KUBECONFIG', 'KIND_CLUSTER', 'KIND_PROVIDER']);
  started.push(() => runScript('kind.sh', ['down', ...lease]));
  const provider = process.env.KIND_PROVIDER ?? '';
  runScript('kind-platform.sh', ['images', '--tag', TAG]);
  const echo = loadEchoImage(provider);
  if (echo) process.env.EDU_KIND_NETPOL_SKIP = echo;
  runScript('kind-platform.sh', ['addons']);
  runScript('kind-platform.sh', ['standin', namespace]);
  const values = runScript('kind-platform.sh', ['values'])
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  process.env.EDU_PLATFORM_VALUES = values.join(',');
  process.env.EDU_KIND = '1';
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(90 * 60_000);
    try {
      upKind();
    } catch (err) {
      if (process.env.KUBECONFIG) await dumpCluster(namespace, 'kind suite setup');
      throw err;
    }
  },
  async afterEach(this: Mocha.Context): Promise<void> {
    if (this.currentTest?.state !== 'failed' || process.env.EDU_KIND !== '1') return;
    this.timeout(120_000);
    await dumpCluster(namespace, this.currentTest.fullTitle());
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(300_000);
    await stopAllForwards();
    // The uninstall test deletes the namespace; after a failure before it, the release goes here
    // (a reused cluster keeps running), unless EDU_KEEP_INFRA=1 keeps it for a look.
    if (process.env.EDU_KIND === '1' && process.env.EDU_KEEP_INFRA !== '1') {
      await kubectl(['delete', 'namespace', namespace, '--ignore-not-found', '--wait=false']).catch((err: Error) =>
        console.error(`kind suite teardown: ${err.message}`),
      );
    }
    // Armed once the teardown is done: its synchronous stops would otherwise eat the grace.
    const stops = process.env.EDU_KEEP_INFRA === '1' ? [] : started.reverse();
    for (const stop of stops) {
      try {
        stop();
      } catch (err) {
        console.error(`kind suite teardown: ${(err as Error).message}`);
      }
    }
    armExitWatchdog();
  },
};
