// The decision scripts/test-all.sh takes before the cluster and node suites (pure: facts in, reason out).
import { expect } from 'chai';
import { hostFacts, skipReason, type HostFacts } from '../lib/suite-prerequisites.js';

const ALL = new Set([
  'go',
  'apt-get',
  'ip',
  'containerd',
  'runc',
  'iptables',
  'ipset',
  'buildah',
  'debootstrap',
  'gcc',
]);

/** A Linux CI machine as root with every tool; `over` changes what a test is about. */
function facts(over: Partial<HostFacts> & { commands?: Set<string> } = {}): HostFacts {
  const commands = over.commands ?? ALL;
  return {
    platform: 'linux',
    uid: 0,
    env: {},
    cgroups: true,
    has: (c) => commands.has(c),
    dockerWorks: () => false,
    ...over,
  };
}

const without = (...gone: string[]) => new Set([...ALL].filter((c) => !gone.includes(c)));

describe('suite prerequisites: which suite this machine can run, and why not', () => {
  it('CI (Linux, root, Go, apt-get) runs both suites', () => {
    expect(skipReason('k8s', facts())).to.equal(undefined);
    expect(skipReason('node', facts())).to.equal(undefined);
  });

  it('a user without root skips the node suite, saying how to run it, and still runs the cluster suite', () => {
    const laptop = facts({ uid: 1000 });
    expect(skipReason('node', laptop))
      .to.match(/needs root/)
      .and.to.include('sudo make node-test');
    expect(skipReason('k8s', laptop)).to.equal(undefined);
  });

  it('macOS skips both unless KUBECONFIG names a cluster (the cluster suite) or EDU_NODE_EXTERNAL=1 (the node suite)', () => {
    const mac = facts({ platform: 'darwin', uid: 501 });
    expect(skipReason('k8s', mac)).to.match(/needs Linux.*darwin/);
    expect(skipReason('node', mac)).to.match(/needs Linux.*darwin/);
    const external = facts({ platform: 'darwin', uid: 501, env: { KUBECONFIG: '/k', EDU_NODE_EXTERNAL: '1' } });
    expect(skipReason('k8s', external)).to.equal(undefined);
    expect(skipReason('node', external)).to.equal(undefined);
  });

  it('no Go: the local control plane cannot be built (KUBECONFIG still runs the cluster suite)', () => {
    const noGo = facts({ commands: without('go') });
    expect(skipReason('k8s', noGo)).to.match(/Go was not found/);
    expect(skipReason('node', noGo)).to.match(/Go >= 1.24/);
    expect(skipReason('k8s', facts({ commands: without('go'), env: { KUBECONFIG: '/k' } }))).to.equal(undefined);
  });

  it('root without the node packages runs when apt-get can install them, skips when it cannot', () => {
    expect(skipReason('node', facts({ commands: without('containerd', 'buildah') }))).to.equal(undefined);
    expect(skipReason('node', facts({ commands: without('containerd', 'buildah', 'apt-get') }))).to.match(
      /missing containerd, buildah and no apt-get/,
    );
  });

  it('no cgroups or no ip command: the node suite is skipped with the reason', () => {
    expect(skipReason('node', facts({ cgroups: false }))).to.match(/cgroup/);
    expect(skipReason('node', facts({ commands: without('ip') }))).to.match(/iproute2/);
  });

  it('EDU_SKIP_K8S_TESTS=1 and EDU_SKIP_NODE_TESTS=1 are reasons too', () => {
    expect(skipReason('k8s', facts({ env: { EDU_SKIP_K8S_TESTS: '1' } }))).to.equal('EDU_SKIP_K8S_TESTS=1');
    expect(skipReason('node', facts({ env: { EDU_SKIP_NODE_TESTS: '1' } }))).to.equal('EDU_SKIP_NODE_TESTS=1');
  });

  it('kind: CI (Linux, root, Go, apt-get, no Docker) runs it with the podman provider', () => {
    expect(skipReason('kind', facts())).to.equal(undefined);
    expect(skipReason('kind', facts({ commands: without('apt-get') }))).to.match(/neither podman nor apt-get/);
    expect(skipReason('kind', facts({ commands: new Set([...without('apt-get'), 'podman']) }))).to.equal(undefined);
  });

  it('kind: a laptop user with a working Docker engine runs it without root; without Docker it is skipped, saying how', () => {
    const docker = facts({ uid: 1000, platform: 'darwin', dockerWorks: () => true });
    expect(skipReason('kind', docker)).to.equal(undefined);
    expect(skipReason('kind', facts({ uid: 1000, dockerWorks: () => true, commands: new Set(['kind']) }))).to.equal(
      undefined,
    );
    expect(skipReason('kind', facts({ uid: 1000, dockerWorks: () => true, commands: new Set() }))).to.match(
      /kind is not on PATH and Go/,
    );
    expect(skipReason('kind', facts({ uid: 1000 })))
      .to.match(/needs root/)
      .and.to.include('make kind-test');
    expect(skipReason('kind', facts({ platform: 'darwin', uid: 501 }))).to.match(/needs Linux/);
  });

  it('kind: EDU_KIND_PROVIDER forces a provider; EDU_SKIP_KIND_TESTS=1 skips', () => {
    expect(skipReason('kind', facts({ env: { EDU_KIND_PROVIDER: 'docker' } }))).to.match(/no Docker engine answers/);
    expect(skipReason('kind', facts({ env: { EDU_KIND_PROVIDER: 'podman' }, dockerWorks: () => true }))).to.equal(
      undefined,
    );
    expect(
      skipReason('kind', facts({ uid: 1000, env: { EDU_KIND_PROVIDER: 'podman' }, dockerWorks: () => true })),
    ).to.match(/needs root/);
    expect(skipReason('kind', facts({ env: { EDU_SKIP_KIND_TESTS: '1' } }))).to.equal('EDU_SKIP_KIND_TESTS=1');
  });

  it("hostFacts reads this machine (the test's own process: sh is on PATH, nothing called edu-no-such)", () => {
    const here = hostFacts();
    expect(here.platform).to.equal(process.platform);
    expect(here.has('sh')).to.equal(true);
    expect(here.has('edu-no-such-command')).to.equal(false);
  });
});
