// scripts/lib/versions.sh is the one file of the scripts' version pins; where a build file states
// the same version (a Maven POM, a go.mod), the two must agree, or the cache folder a script names
// holds something else than it says.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { versionPin } from '../lib/versions.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The first capture of `pattern` in `file`. */
function stated(file: string, pattern: RegExp): string | undefined {
  return pattern.exec(read(file))?.[1];
}

describe('scripts/lib/versions.sh', () => {
  it('pins Kafka and mongo-java-server as their POMs do', () => {
    expect(stated('tools/kafka/pom.xml', /<kafka\.version>([^<]+)</)).to.equal(versionPin('KAFKA_VERSION'));
    expect(stated('tools/mongo-java-server/pom.xml', /<mjs\.version>([^<]+)</)).to.equal(versionPin('MJS_VERSION'));
  });

  it('pins Kubernetes and kube-router as the Go modules that build them do', () => {
    for (const mod of ['tools/k8s-testbin/go.mod', 'tools/k8s-testbin/kind/go.mod']) {
      expect(stated(mod, /^\tk8s\.io\/kubernetes (v\S+)/m), mod).to.equal(versionPin('K8S_VERSION'));
    }
    const kubeRouter = stated('tools/netpol/go.mod', /^\tgithub\.com\/cloudnativelabs\/kube-router\/v2 (v\S+)/m);
    expect(kubeRouter).to.equal(versionPin('KUBE_ROUTER_VERSION'));
  });

  it('asks for the Go that the Go modules name', () => {
    for (const mod of ['tools/k8s-testbin/go.mod', 'tools/netpol/go.mod']) {
      expect(stated(mod, /^go (\d+\.\d+)/m), mod).to.equal(versionPin('GO_MIN_VERSION'));
    }
  });

  it('names no pin twice and every pin has a value', () => {
    const names = read('scripts/lib/versions.sh')
      .split('\n')
      .filter((l) => /^[A-Z0-9_]+=/.test(l))
      .map((l) => l.slice(0, l.indexOf('=')));
    expect(new Set(names).size).to.equal(names.length);
    for (const name of names) expect(versionPin(name), name).to.match(/\S/);
  });
});
