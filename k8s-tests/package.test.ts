// `make package` (scripts/package.sh) for real: the chart archive helm reads back with the
// Chart.yaml versions, the platform image as an OCI image layout whose every blob matches its
// digest and whose config runs node as a non-root user, a SHA256SUMS that verifies, the printed
// push and install commands, and a directory that holds one release only. The image is built by
// scripts/images.sh, whose cache the node suite shares (an unchanged tree is not rebuilt, only its
// archive is written for the release tag: about 25 s in `make test`). Building images needs root:
// without it, or with EDU_SKIP_NODE_TESTS=1 or EDU_PACKAGE_CHART_ONLY=1, only the chart half runs
// and the image tests are reported as pending.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { helm } from './helpers/cluster.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- OCI documents and Chart.yaml are untyped JSON/YAML */
type Obj = Record<string, any>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(root, 'scripts', 'package.sh');
const chartYaml = parseYaml(readFileSync(path.join(root, 'charts', 'edu-platform', 'Chart.yaml'), 'utf8')) as Obj;
const version = String(chartYaml.version);
const appVersion = String(chartYaml.appVersion);
const chartFile = `edu-platform-${version}.tgz`;
const imageFile = `edu-platform-image-${appVersion}.oci.tar`;
const canBuildImages =
  process.getuid?.() === 0 && process.env.EDU_PACKAGE_CHART_ONLY !== '1' && process.env.EDU_SKIP_NODE_TESTS !== '1';

function packageInto(out: string, chartOnly: boolean): string {
  const args = [script, '--out', out, ...(chartOnly ? ['--chart-only'] : [])];
  const res = spawnSync('bash', args, { cwd: root, encoding: 'utf8', timeout: 30 * 60_000 });
  if (res.status !== 0) throw new Error(`scripts/package.sh exited ${res.status}:\n${res.stderr.slice(-3000)}`);
  return res.stdout;
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(file)
      .on('data', (d) => h.update(d))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });
}

/** A blob of the layout named by a descriptor: present, of the descriptor's size and digest. */
async function blob(layout: string, desc: Obj): Promise<string> {
  const m = /^sha256:([0-9a-f]{64})$/.exec(String(desc.digest));
  expect(m, `descriptor digest ${desc.digest}`).to.not.equal(null);
  const hex = m?.[1] ?? '';
  const file = path.join(layout, 'blobs', 'sha256', hex);
  expect(existsSync(file), `blob ${desc.digest} missing`).to.equal(true);
  expect(statSync(file).size, `size of ${desc.digest}`).to.equal(desc.size);
  expect(await sha256File(file), `content of ${desc.digest}`).to.equal(hex);
  return file;
}

const readJson = (file: string): Obj => JSON.parse(readFileSync(file, 'utf8')) as Obj;

describe('make package: the release an admin pushes (scripts/package.sh)', function () {
  const out = mkdtempSync(path.join(tmpdir(), 'edu-package-'));
  let printed = '';

  before(function () {
    this.timeout(40 * 60_000);
    printed = packageInto(out, !canBuildImages);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('writes the chart archive named by the Chart.yaml version; helm reads back both versions', async function () {
    expect(version).to.match(/^\d+\.\d+\.\d+/);
    const archive = path.join(out, chartFile);
    expect(existsSync(archive), `${chartFile} in ${readdirSync(out).join(', ')}`).to.equal(true);
    const shown = parseYaml(await helm(['show', 'chart', archive])) as Obj;
    expect(shown).to.include({ name: 'edu-platform', version, appVersion });
    const values = parseYaml(await helm(['show', 'values', archive])) as Obj;
    expect(values.image.repository).to.equal('edu-platform');
  });

  it('writes SHA256SUMS naming every archive of the release, and sha256sum -c verifies it', async function () {
    const lines = readFileSync(path.join(out, 'SHA256SUMS'), 'utf8').trim().split('\n');
    const listed = new Map(lines.map((l) => [l.slice(66), l.slice(0, 64)]));
    const archives = readdirSync(out).filter((f) => f !== 'SHA256SUMS');
    expect([...listed.keys()].sort()).to.deep.equal(archives.sort());
    for (const f of archives) expect(listed.get(f), f).to.equal(await sha256File(path.join(out, f)));
    const check = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).to.equal(0);
  });

  it('prints how to push the image (skopeo, crane, podman, docker) and install the chart', function () {
    if (canBuildImages) {
      expect(printed).to.include(
        `skopeo copy oci-archive:${out}/${imageFile} docker://registry.example.org/edu/edu-platform:${appVersion}`,
      );
      for (const tool of ['crane push', 'podman push', 'docker push']) expect(printed).to.include(tool);
    }
    expect(printed).to.include(`helm install edu-platform ${out}/${chartFile}`);
    expect(printed).to.include('--set image.registry=registry.example.org/edu');
  });

  describe('the image archive', function () {
    const layout = mkdtempSync(path.join(tmpdir(), 'edu-package-oci-'));
    let config: Obj = {};
    let index: Obj = {};

    before(async function () {
      if (!canBuildImages) {
        console.log(
          'skipped: the image archive tests: building the image needs root (scripts/images.sh: debootstrap, buildah); ' +
            'run `sudo make k8s-test` (EDU_PACKAGE_CHART_ONLY=1 or EDU_SKIP_NODE_TESTS=1 also skip them)',
        );
        this.skip();
      }
      this.timeout(5 * 60_000);
      expect(existsSync(path.join(out, imageFile)), `${imageFile} in ${readdirSync(out).join(', ')}`).to.equal(true);
      execFileSync('tar', ['-xf', path.join(out, imageFile), '-C', layout]);
      index = readJson(path.join(layout, 'index.json'));
    });
    after(() => rmSync(layout, { recursive: true, force: true }));

    it('is an OCI image layout: oci-layout, index.json, every referenced blob present with its digest', async function () {
      this.timeout(5 * 60_000);
      expect(readJson(path.join(layout, 'oci-layout'))).to.deep.equal({ imageLayoutVersion: '1.0.0' });
      expect(index.schemaVersion).to.equal(2);
      expect(index.manifests).to.have.length(1);
      const [desc] = index.manifests;
      expect(desc.mediaType).to.equal('application/vnd.oci.image.manifest.v1+json');
      expect(desc.annotations['org.opencontainers.image.ref.name']).to.match(new RegExp(`edu-platform:${appVersion}$`));
      const manifest = readJson(await blob(layout, desc));
      expect(manifest.config.mediaType).to.equal('application/vnd.oci.image.config.v1+json');
      config = readJson(await blob(layout, manifest.config));
      expect(manifest.layers.length).to.be.greaterThan(0);
      for (const layer of manifest.layers) {
        expect(layer.mediaType).to.match(/^application\/vnd\.oci\.image\.layer\.v1\.tar(\+gzip|\+zstd)?$/);
        await blob(layout, layer);
      }
      expect(config.rootfs.diff_ids).to.have.length(manifest.layers.length);
    });

    it('runs node as the Dockerfile says: no entrypoint, node as the command, a non-root user', function () {
      expect(config.os).to.equal('linux');
      const c = config.config as Obj;
      expect(c.Entrypoint ?? []).to.deep.equal([]);
      expect(c.Cmd).to.deep.equal(['node', 'dist/services/cli.js', 'auth']);
      expect(c.WorkingDir).to.equal('/app');
      expect(c.Env).to.include('NODE_ENV=production');
      const [user, group] = String(c.User ?? '').split(':');
      expect(user, `User ${c.User}`).to.match(/^[1-9]\d*$/);
      expect(group, `User ${c.User}`).to.match(/^[1-9]\d*$/);
    });
  });

  describe('a second run', function () {
    it('leaves one release in the directory: an earlier version is removed, the rest written again', function () {
      this.timeout(5 * 60_000);
      writeFileSync(path.join(out, 'edu-platform-0.0.1.tgz'), 'an earlier release');
      writeFileSync(path.join(out, 'edu-platform-image-0.0.1.oci.tar'), 'an earlier image');
      packageInto(out, true);
      expect(readdirSync(out).sort()).to.deep.equal(['SHA256SUMS', chartFile].sort());
    });
  });
});
