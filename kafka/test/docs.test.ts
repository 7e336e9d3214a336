// README.md and docs/ stay whole for a reader with only the clone: the front page fits on two
// screens, every relative link in README.md and docs/*.md reaches a file of the repository (and,
// when it names one, a heading of that file), and no Markdown file points outside the clone
// (`../shared`) or names the machine by an internal label instead of its requirements. Pure: reads
// files only.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const README_MAX_LINES = 120;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage']);
const FORBIDDEN = [/\.\.\/shared/i, /polyglot/i];

const read = (rel: string): string => readFileSync(path.join(root, rel), 'utf8');

/** Every .md file of the repository (relative paths), build output and packages left out. */
function markdownFiles(dir = ''): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : markdownFiles(rel);
    return e.name.endsWith('.md') ? [rel] : [];
  });
}

/** The text with fenced blocks blanked out (links and headings in code are not links or headings). */
function withoutFences(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (line.trimStart().startsWith('```')) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading (one without a link): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_ -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown text defines (a repeated heading gets -1, -2, … as on GitHub). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative link targets of a Markdown text (web, mail and code spans left out). */
export function relativeLinks(markdown: string): string[] {
  const prose = withoutFences(markdown).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((target) => !/^[a-z]+:/i.test(target));
}

/** What is wrong with the links of `file` (a path relative to the repository), one line each. */
export function brokenLinks(file: string, markdown: string, readText: (rel: string) => string = read): string[] {
  const problems: string[] = [];
  for (const link of relativeLinks(markdown)) {
    const [target = '', anchor] = link.split('#');
    const rel = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
    if (rel.startsWith('../') || path.isAbsolute(rel)) problems.push(`${file}: ${link} leaves the repository`);
    else if (!existsSync(path.join(root, rel))) problems.push(`${file}: ${link} names no file`);
    else if (anchor && rel.endsWith('.md') && !anchors(readText(rel)).has(anchor))
      problems.push(`${file}: ${link} names no heading of ${rel}`);
  }
  return problems;
}

/** Lines of `file` that point outside the clone or name the machine by an internal label. */
export function forbiddenMentions(file: string, markdown: string): string[] {
  return markdown
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => FORBIDDEN.some((re) => re.test(line)))
    .map(({ n }) => `${file}:${n}`);
}

describe('README.md and docs/ (the documentation a clone carries)', function () {
  const docs = markdownFiles('docs');

  it('keeps the front page to two screens', function () {
    const lines = read('README.md').split('\n').length;
    expect(lines, 'README.md lines').to.be.at.most(README_MAX_LINES);
  });

  it('links README.md to every page of docs/', function () {
    const linked = new Set(relativeLinks(read('README.md')).map((l) => l.split('#')[0]));
    const unlinked = docs.filter((d) => !linked.has(d));
    expect(docs.length, 'pages in docs/').to.be.greaterThan(5);
    expect(unlinked, 'docs/ pages the README does not link').to.deep.equal([]);
  });

  it('has no broken relative link or anchor in README.md and docs/*.md', function () {
    const problems = ['README.md', ...docs].flatMap((f) => brokenLinks(f, read(f)));
    expect(problems).to.deep.equal([]);
  });

  it('points nowhere outside the clone and names no internal machine label in any .md file', function () {
    const files = markdownFiles();
    expect(files).to.include.members(['README.md', 'docs/operating.md', 'charts/edu-platform/README.md']);
    const found = files.flatMap((f) => forbiddenMentions(f, read(f)));
    expect(found, 'mentions of ../shared or "polyglot"').to.deep.equal([]);
  });

  it('can fail: a missing file, a missing heading, a way out of the clone, a forbidden mention', function () {
    const page = 'docs/security.md';
    const text = (rel: string): string => (rel === page ? '# A heading\n' : read(rel));
    expect(brokenLinks(page, '[a](#a-heading) [b](../README.md) [c](kit.md#consumers)', text)).to.deep.equal([]);
    expect(brokenLinks(page, '[a](nope.md)', text)).to.have.length(1);
    expect(brokenLinks(page, '[a](#no-such-heading)', text)).to.have.length(1);
    expect(brokenLinks(page, '[a](kit.md#no-such-heading)', text)).to.have.length(1);
    expect(brokenLinks(page, '[a](../../shared/DESIGN.md)', text)).to.have.length(1);
    expect(brokenLinks(page, '`[a](nope.md)` [w](https://example.org)', text)).to.deep.equal([]);
    expect(forbiddenMentions('docs/x.md', 'see ../shared/seeds/\na polyglot machine')).to.deep.equal([
      'docs/x.md:1',
      'docs/x.md:2',
    ]);
    expect(forbiddenMentions('services/document-import/PARSER.md', 'read ../shared/seeds')).to.have.length(1);
  });

  it('makes GitHub anchors', function () {
    expect(slug('Cluster tests (`make k8s-test`)')).to.equal('cluster-tests-make-k8s-test');
    expect(slug("The kit's per-request cost")).to.equal('the-kits-per-request-cost');
    expect([...anchors('# Tests\n```\n# not a heading\n```\n## Tests\n')]).to.deep.equal(['tests', 'tests-1']);
  });
});
