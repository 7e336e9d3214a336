import { expect } from 'chai';
import {
  ANNOTATION_TEMPLATE_HASH,
  desiredDeployment,
  isControlledBy,
  ownerJobName,
  stableStringify,
} from '../src/controller/worker-deployment.js';
import { aJob } from './support/factories.js';

describe('desiredDeployment', () => {
  it('selects its pods by job and component and labels them so, keeping the user labels', () => {
    const job = aJob();
    job.spec.worker.template.metadata = { labels: { team: 'imports', 'app.kubernetes.io/component': 'spoofed' } };
    const d = desiredDeployment(job, 2);
    expect(d.spec?.selector.matchLabels).to.deep.equal({
      'imports.edu-platform.io/job': 'parse',
      'app.kubernetes.io/component': 'docx-parser-worker',
    });
    expect(d.spec?.template.metadata?.labels).to.deep.equal({
      team: 'imports',
      'imports.edu-platform.io/job': 'parse',
      'app.kubernetes.io/component': 'docx-parser-worker',
    });
    expect(d.metadata?.labels?.['app.kubernetes.io/managed-by']).to.equal('docx-import-operator');
  });

  it('gives every container the queue coordinates and concurrency, overriding same-named user values', () => {
    const job = aJob({ concurrency: 4 });
    job.spec.worker.template.spec.containers = [
      {
        name: 'a',
        image: 'x',
        env: [
          { name: 'DOCX_IMPORT_TOPIC', value: 'elsewhere' },
          { name: 'KEEP', value: '1' },
        ],
      },
      { name: 'b', image: 'y' },
    ];
    const env = desiredDeployment(job, 1).spec?.template.spec?.containers.map((c) =>
      c.env?.map((e) => `${e.name}=${e.value}`),
    );
    expect(env).to.deep.equal([
      ['KEEP=1', 'DOCX_IMPORT_TOPIC=docx-import.jobs.v1', 'DOCX_IMPORT_CONSUMER_GROUP=parsers', 'WORKER_CONCURRENCY=4'],
      ['DOCX_IMPORT_TOPIC=docx-import.jobs.v1', 'DOCX_IMPORT_CONSUMER_GROUP=parsers', 'WORKER_CONCURRENCY=4'],
    ]);
  });

  it('changes the template hash with the template, not with the replicas', () => {
    const job = aJob();
    const hash = (j = job, r = 1) => desiredDeployment(j, r).metadata?.annotations?.[ANNOTATION_TEMPLATE_HASH];
    const changed = aJob();
    changed.spec.worker.template.spec.containers[0]!.image = 'edu/worker:2';
    expect(hash(job, 1)).to.equal(hash(job, 7));
    expect(hash(changed)).to.not.equal(hash(job));
  });

  it('is controlled by the job through a controller owner reference that names it', () => {
    const job = aJob();
    const d = desiredDeployment(job, 1);
    expect(isControlledBy(d, job)).to.equal(true);
    expect(isControlledBy(d, { ...job, metadata: { ...job.metadata, uid: 'another' } })).to.equal(false);
    expect(ownerJobName(d)).to.equal('parse');
  });
});

describe('stableStringify', () => {
  it('ignores key order and undefined members', () => {
    expect(stableStringify({ b: 1, a: [{ y: 2, x: undefined, w: 'z' }] })).to.equal(
      stableStringify({ a: [{ w: 'z', y: 2 }], b: 1 }),
    );
  });
});
