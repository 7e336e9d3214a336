import { expect } from 'chai';
import { closeParserSandbox, configureParserSandbox, parserSandbox } from '../../src/sandbox/index.js';
import { smallDocx } from './support.js';

describe('configureParserSandbox (the process-wide pool)', function () {
  this.timeout(60000);
  after(() => closeParserSandbox());

  it('keeps the running pool for the same size, so a second service in the process does not end the first one\u2019s parses', async () => {
    const first = configureParserSandbox({ threads: 1, maxQueue: 4 });
    const parsing = first.parse(smallDocx());
    const again = configureParserSandbox({ threads: 1, maxQueue: 4 });
    expect(again).to.equal(first);
    expect(parserSandbox()).to.equal(first);
    expect((await parsing).questions).to.have.length(1);
  });

  it('replaces the pool for another size', () => {
    const before = configureParserSandbox({ threads: 1, maxQueue: 4 });
    expect(configureParserSandbox({ threads: 1, maxQueue: 5 })).to.not.equal(before);
  });
});
