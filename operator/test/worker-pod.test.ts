// The worker pod's probes and its files from Secrets, as the operator builds them (pure).
import { expect } from 'chai';
import { parseSecretFiles, secretFileVolumes } from '../src/controller/secret-files.js';
import { workerTemplate } from '../src/controller/worker-deployment.js';
import { aJob, aPolicy, desiredFor } from './support/factories.js';

const files = parseSecretFiles(
  [
    'kafka-ca:ca.crt:/etc/edu-platform/kafka/ca.crt',
    'kafka-user:user.crt:/etc/edu-platform/kafka/client.crt',
    'kafka-user:user.key:/etc/edu-platform/kafka/client.key',
    'mongo-ca:ca.crt:/etc/edu-platform/mongodb/ca.crt',
  ].join(','),
).files;

describe('worker pod: files from Secrets (WORKER_SECRET_FILES)', () => {
  it('mounts one read-only projected volume per directory, a source per Secret, an item per key', () => {
    const pod = desiredFor(aJob(), 1, aPolicy({ secretFiles: files, fsGroup: 10001 })).spec?.template.spec;
    expect(pod?.volumes).to.deep.equal([
      { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
      {
        name: 'secret-files-0',
        projected: {
          defaultMode: 0o440,
          sources: [
            { secret: { name: 'kafka-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              secret: {
                name: 'kafka-user',
                items: [
                  { key: 'user.crt', path: 'client.crt' },
                  { key: 'user.key', path: 'client.key' },
                ],
              },
            },
          ],
        },
      },
      {
        name: 'secret-files-1',
        projected: {
          defaultMode: 0o440,
          sources: [{ secret: { name: 'mongo-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }],
        },
      },
    ]);
    expect(pod?.containers[0]?.volumeMounts).to.deep.equal([
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'secret-files-0', mountPath: '/etc/edu-platform/kafka', readOnly: true },
      { name: 'secret-files-1', mountPath: '/etc/edu-platform/mongodb', readOnly: true },
    ]);
  });

  it('makes the files world-readable (0444) only when the pod has no fsGroup to own them', () => {
    expect(secretFileVolumes(files, undefined).volumes.map((v) => v.projected?.defaultMode)).to.deep.equal([
      0o444, 0o444,
    ]);
    expect(secretFileVolumes(files, 2000).volumes.map((v) => v.projected?.defaultMode)).to.deep.equal([0o440, 0o440]);
  });

  it('mounts nothing beyond /tmp when none are configured', () => {
    const pod = desiredFor(aJob(), 1).spec?.template.spec;
    expect(pod?.volumes?.map((v) => v.name)).to.deep.equal(['tmp']);
  });

  it('changes the template hash when the files change (the workers roll)', () => {
    const hash = (secretFiles = files) =>
      desiredFor(aJob(), 1, aPolicy({ secretFiles })).metadata?.annotations?.['imports.edu-platform.io/template-hash'];
    expect(hash()).to.not.equal(hash(files.slice(1)));
  });
});

describe('worker pod: probes', () => {
  it('names the health port, passes it to the worker, and probes /readyz and /healthz on it', () => {
    const c = desiredFor(aJob(), 1, aPolicy({ healthPort: 9091 })).spec?.template.spec?.containers[0];
    expect(c?.ports).to.deep.equal([{ name: 'health', containerPort: 9091, protocol: 'TCP' }]);
    expect(c?.env?.find((e) => e.name === 'WORKER_HEALTH_PORT')).to.deep.equal({
      name: 'WORKER_HEALTH_PORT',
      value: '9091',
    });
    expect(c?.readinessProbe).to.deep.include({ httpGet: { path: '/readyz', port: 'health' } });
    expect(c?.livenessProbe).to.deep.include({ httpGet: { path: '/healthz', port: 'health' } });
    // The liveness confirmation stays short beside the worker's own stuck bound (minutes).
    const p = c!.livenessProbe!;
    expect(p.periodSeconds! * p.failureThreshold!).to.be.at.most(60);
  });

  it('refuses a job that sets WORKER_HEALTH_PORT (the probes would miss the worker)', () => {
    const job = aJob();
    job.spec.worker.template.spec.containers[0]!.env = [{ name: 'WORKER_HEALTH_PORT', value: '1234' }];
    const result = workerTemplate(job, aPolicy());
    expect(result.ok).to.equal(false);
    expect(!result.ok && result.problems.join()).to.match(/WORKER_HEALTH_PORT is not one of/);
  });
});
