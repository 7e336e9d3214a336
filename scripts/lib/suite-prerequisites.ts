// Whether this machine can run a suite that needs more than a laptop has, and if not, why. `make
// test` (scripts/test-all.sh) asks before the cluster and node suites and reports a suite it cannot
// run as skipped with this reason; CI runs as root on Linux with Go, so it runs both.
//   node --import tsx scripts/lib/suite-prerequisites.ts k8s|node|kind
// prints one line, the reason to skip, or nothing when the suite can run.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Suite = 'k8s' | 'node' | 'kind';

/** What the decision looks at; `hostFacts()` reads them from this machine. */
export interface HostFacts {
  platform: NodeJS.Platform;
  /** undefined where there are no uids (Windows). */
  uid: number | undefined;
  env: Record<string, string | undefined>;
  /** Whether a command is on PATH (Go also in /usr/local/go/bin, where scripts/cluster.sh looks). */
  has(command: string): boolean;
  /** Whether /sys/fs/cgroup exists (the kubelet's cgroups). */
  cgroups: boolean;
  /** Whether a Docker engine answers (`docker info`): kind's Docker provider, no root needed. */
  dockerWorks(): boolean;
}

/** What scripts/node.sh, netpol.sh and images.sh install with apt-get when it is missing. */
const NODE_PACKAGES = ['containerd', 'runc', 'iptables', 'ipset', 'buildah', 'debootstrap', 'gcc'];
const RUN_NODE = 'run it with `sudo make node-test` (or EDU_NODE_EXTERNAL=1 with KUBECONFIG for another cluster)';
const RUN_K8S = 'install Go >= 1.24 and run `make k8s-test`, or set KUBECONFIG to a cluster';

function k8sReason(f: HostFacts): string | undefined {
  if (f.env.EDU_SKIP_K8S_TESTS === '1') return 'EDU_SKIP_K8S_TESTS=1';
  if (f.env.KUBECONFIG) return undefined;
  if (f.platform !== 'linux')
    return `the local control plane (scripts/cluster.sh) needs Linux (/proc, flock), this is ${f.platform}; set KUBECONFIG to a cluster and run \`make k8s-test\``;
  if (!f.has('go')) return `the local control plane is built from source and Go was not found; ${RUN_K8S}`;
  return undefined;
}

function nodeReason(f: HostFacts): string | undefined {
  if (f.env.EDU_SKIP_NODE_TESTS === '1') return 'EDU_SKIP_NODE_TESTS=1';
  if (f.env.EDU_NODE_EXTERNAL === '1') return undefined;
  if (f.platform !== 'linux')
    return `the local node needs Linux (bridges, iptables, mounts, cgroups), this is ${f.platform}; ${RUN_NODE}`;
  if (f.uid !== 0)
    return `the local node needs root (apt packages, a bridge, iptables, mounts: scripts/node.sh); ${RUN_NODE}`;
  if (!f.cgroups) return `no /sys/fs/cgroup here (the kubelet needs cgroups); ${RUN_NODE} on a host with cgroups`;
  const missing = NODE_PACKAGES.filter((c) => !f.has(c));
  if (missing.length && !f.has('apt-get'))
    return `missing ${missing.join(', ')} and no apt-get to install them; install them and ${RUN_NODE}`;
  if (!f.has('ip')) return `no \`ip\` command (iproute2) for the node's bridge; install it and ${RUN_NODE}`;
  if (!f.has('go'))
    return `the node's kubelet, scheduler and kube-proxy are built with Go >= 1.24, not found; ${RUN_NODE}`;
  return undefined;
}

const RUN_KIND = "run `make kind-test` on a machine with a Docker engine, or as root on Linux (kind's podman provider)";

/** kind's Docker provider: a laptop's engine, no root; kind on PATH or Go to build it. */
function kindOnDocker(f: HostFacts): string | undefined {
  if (f.has('kind') || f.has('go')) return undefined;
  return `kind is not on PATH and Go (to build it) was not found; install either and ${RUN_KIND}`;
}

/** kind's podman provider, as on CI: root on Linux, a node image built here with Go. */
function kindOnPodman(f: HostFacts): string | undefined {
  if (f.platform !== 'linux')
    return `no Docker engine answers, and kind's podman provider here needs Linux; ${RUN_KIND}`;
  if (f.uid !== 0)
    return `no Docker engine answers, and kind's podman provider needs root (scripts/kind.sh); ${RUN_KIND}`;
  if (!f.cgroups) return `no /sys/fs/cgroup here (kind's node containers run systemd and a kubelet); ${RUN_KIND}`;
  if (!f.has('podman') && !f.has('apt-get')) return `neither podman nor apt-get (to install it) was found; ${RUN_KIND}`;
  if (!f.has('go')) return `kind's node image is built here with Go >= 1.24, not found; ${RUN_KIND}`;
  return undefined;
}

function kindReason(f: HostFacts): string | undefined {
  if (f.env.EDU_SKIP_KIND_TESTS === '1') return 'EDU_SKIP_KIND_TESTS=1';
  const provider = f.env.EDU_KIND_PROVIDER;
  if (provider !== 'podman' && f.dockerWorks()) return kindOnDocker(f);
  if (provider === 'docker') return `EDU_KIND_PROVIDER=docker but no Docker engine answers; ${RUN_KIND}`;
  return kindOnPodman(f);
}

/** The reason this machine cannot run the suite, or undefined when it can. Pure. */
export function skipReason(suite: Suite, facts: HostFacts): string | undefined {
  if (suite === 'kind') return kindReason(facts);
  return suite === 'k8s' ? k8sReason(facts) : nodeReason(facts);
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  // Where apt puts the network tools, absent from a user's PATH on some distributions.
  for (const dir of [...dirs, '/usr/sbin', '/sbin']) {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** This machine's facts. */
export function hostFacts(env: NodeJS.ProcessEnv = process.env): HostFacts {
  return {
    platform: process.platform,
    uid: process.getuid?.(),
    env,
    has: (c) => onPath(c, env) || (c === 'go' && existsSync('/usr/local/go/bin/go')),
    cgroups: existsSync('/sys/fs/cgroup'),
    dockerWorks: () => {
      if (!onPath('docker', env)) return false;
      try {
        execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 });
        return true;
      } catch {
        return false;
      }
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const suite = process.argv[2];
  if (suite !== 'k8s' && suite !== 'node' && suite !== 'kind') {
    process.stderr.write('usage: suite-prerequisites.ts k8s|node|kind\n');
    process.exit(2);
  }
  const reason = skipReason(suite, hostFacts());
  if (reason) process.stdout.write(`${reason}\n`);
}
