// The tree's import graph as the TypeScript compiler reads it (issue 24): every file tsconfig.json
// includes, and its relative imports and re-exports, type-only ones among them (a cycle of types is
// a layering knot even where nothing runs in a loop). Package imports are not followed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A file (repository-relative) to the files it imports, in the order it names them. */
export type ImportGraph = Map<string, string[]>;

/** The files tsconfig.json at `root` compiles, node_modules left out. */
export function projectFiles(root: string): string[] {
  const configPath = path.join(root, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
  return parsed.fileNames.filter((f) => !f.includes('/node_modules/'));
}

/** The repository files one source file imports: `./x.js` resolves to `./x.ts` (NodeNext style). */
export function relativeImports(file: string, root: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = info.importedFiles
    .map((ref) => ref.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolveSource(path.resolve(path.dirname(file), name)))
    .filter((target): target is string => target !== undefined)
    .map((target) => path.relative(root, target));
  return [...new Set(targets)];
}

function resolveSource(target: string): string | undefined {
  const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, path.join(target, 'index.ts'), target];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c));
}

/** The import graph of every file the project compiles. */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of projectFiles(root)) graph.set(path.relative(root, file), relativeImports(file, root));
  return graph;
}

/**
 * Every cycle, one per strongly connected component (Tarjan's algorithm, iterative so a deep tree
 * cannot overflow the stack), each as the path of files from its first file back to that file.
 */
export function importCycles(graph: ImportGraph): string[][] {
  return components(graph)
    .filter((c) => c.length > 1 || (graph.get(c[0] ?? '') ?? []).includes(c[0] ?? ''))
    .map((c) => cycleWithin(graph, new Set(c)));
}

interface Frame {
  node: string;
  next: number;
}

function components(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (start: string): void => {
    const frames: Frame[] = [open(start)];
    while (frames.length > 0) step(frames);
  };
  const open = (node: string): Frame => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    return { node, next: 0 };
  };
  const step = (frames: Frame[]): void => {
    const frame = frames[frames.length - 1] as Frame;
    const edges = graph.get(frame.node) ?? [];
    const target = edges[frame.next++];
    if (target === undefined) return close(frames);
    if (!index.has(target)) frames.push(open(target));
    else if (onStack.has(target)) lower(frame.node, index.get(target) ?? 0);
  };
  const close = (frames: Frame[]): void => {
    const { node } = frames.pop() as Frame;
    const parent = frames[frames.length - 1];
    if (parent) lower(parent.node, low.get(node) ?? 0);
    if (low.get(node) === index.get(node)) found.push(popComponent(node));
  };
  const lower = (node: string, value: number): void => {
    low.set(node, Math.min(low.get(node) ?? value, value));
  };
  const popComponent = (root: string): string[] => {
    const members: string[] = [];
    for (let m = stack.pop(); m !== undefined; m = m === root ? undefined : stack.pop()) {
      onStack.delete(m);
      members.push(m);
    }
    return members.sort();
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** A shortest path from the component's first file back to itself, through the component only. */
function cycleWithin(graph: ImportGraph, members: Set<string>): string[] {
  const [start] = [...members].sort();
  const previous = new Map<string, string>();
  const queue = [start as string];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const target of graph.get(node) ?? []) {
      if (target === start) return [...pathTo(previous, node, start as string), start as string];
      if (members.has(target) && !previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [...members];
}

function pathTo(previous: Map<string, string>, node: string, start: string): string[] {
  const reversed = [node];
  for (let at = node; at !== start;) {
    at = previous.get(at) as string;
    reversed.push(at);
  }
  return reversed.reverse();
}
