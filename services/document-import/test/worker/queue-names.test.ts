import { expect } from 'chai';
import { logicalQueue } from '../../src/worker/queue-names.js';

describe('docx worker queue names (pure)', () => {
  const physical = { DOCX_IMPORT_TOPIC: 'rel-a.docx-import.jobs.v1', DOCX_IMPORT_CONSUMER_GROUP: 'rel-a.docx-parser' };

  it('takes the release prefix off the physical names the operator passes (the bus puts it back)', () => {
    expect(logicalQueue({ ...physical, KAFKA_TOPIC_PREFIX: 'rel-a.' })).to.deep.include({
      DOCX_IMPORT_TOPIC: 'docx-import.jobs.v1',
      DOCX_IMPORT_CONSUMER_GROUP: 'docx-parser',
    });
  });

  it('keeps the names as they are without a prefix', () => {
    expect(logicalQueue({ ...physical, KAFKA_TOPIC_PREFIX: '' })).to.deep.include(physical);
  });

  it('refuses a queue outside the release prefix, naming the variable', () => {
    expect(() => logicalQueue({ ...physical, KAFKA_TOPIC_PREFIX: 'rel-b.' })).to.throw(
      /"DOCX_IMPORT_TOPIC" \(rel-a\.docx-import\.jobs\.v1\) does not start with the release's KAFKA_TOPIC_PREFIX \(rel-b\.\)/,
    );
    expect(() =>
      logicalQueue({ DOCX_IMPORT_TOPIC: 'rel-a.t', DOCX_IMPORT_CONSUMER_GROUP: 'other', KAFKA_TOPIC_PREFIX: 'rel-a.' }),
    ).to.throw(/DOCX_IMPORT_CONSUMER_GROUP/);
  });
});
