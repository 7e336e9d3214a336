// Issue 24: the tree has no import cycle. Every file the project compiles is read with the
// TypeScript compiler's pre-processor and its relative imports (type-only ones too) are walked; a
// failure names each cycle as a path of files, so the fix (moving the shared type to the layer that
// owns it, or a port the lower layer implements) can start from the message.
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { importCycles, importGraph, type ImportGraph } from './support/import-graph.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

describe('import graph', () => {
  it('has no cycle anywhere in the tree', () => {
    const graph = importGraph(repo);
    expect(graph.size, 'the walk found the project').to.be.greaterThan(100);
    const cycles = importCycles(graph).map((c) => c.join(' -> '));
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).to.deep.equal([]);
  });

  it('finds a cycle it is shown, and only that one', () => {
    const graph: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).to.have.deep.members([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
  });
});
