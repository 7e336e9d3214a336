import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { compatibilityProblems, type CatalogueSnapshot } from '../compatibility.js';

const RELEASE_TAG = 'edu-platform-0.1.0';
const kafkaDir = new URL('../', import.meta.url);
const repoDir = new URL('../../', import.meta.url);

const readJson = (url: URL): unknown => JSON.parse(readFileSync(url, 'utf8'));

function currentCatalogue(): CatalogueSnapshot {
  const schemas: Record<string, unknown> = {};
  for (const f of readdirSync(new URL('schemas/', kafkaDir)).filter((x) => x.endsWith('.json')))
    schemas[f.slice(0, -'.json'.length)] = readJson(new URL(`schemas/${f}`, kafkaDir));
  const defs: Record<string, unknown> = {};
  for (const f of readdirSync(new URL('schemas/defs/', kafkaDir)).filter((x) => x.endsWith('.json')))
    defs[`defs/${f}`] = readJson(new URL(`schemas/defs/${f}`, kafkaDir));
  const topics = (readJson(new URL('topics.json', kafkaDir)) as CatalogueSnapshot).topics;
  return { topics, schemas, defs };
}

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: repoDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

function tagExists(tag: string): boolean {
  try {
    git('rev-parse', '--verify', '--quiet', `refs/tags/${tag}`);
    return true;
  } catch {
    return false;
  }
}

/** The catalogue as released at `tag` (git show of kafka/topics.json and kafka/schemas). */
function catalogueAt(tag: string): CatalogueSnapshot {
  const show = (path: string) => JSON.parse(git('show', `${tag}:${path}`)) as unknown;
  const files = git('ls-tree', '-r', '--name-only', tag, 'kafka/schemas/')
    .split('\n')
    .filter((f) => f.endsWith('.json'));
  const schemas: Record<string, unknown> = {};
  const defs: Record<string, unknown> = {};
  for (const f of files) {
    const rel = f.slice('kafka/schemas/'.length);
    if (rel.startsWith('defs/')) defs[rel] = show(f);
    else schemas[rel.slice(0, -'.json'.length)] = show(f);
  }
  return { topics: (show('kafka/topics.json') as CatalogueSnapshot).topics, schemas, defs };
}

const clone = <T>(v: T): T => structuredClone(v);

describe('event compatibility rule: kafka/schemas against the last release', () => {
  it(`adds only, compared with the catalogue at tag ${RELEASE_TAG}`, function () {
    if (!tagExists(RELEASE_TAG)) {
      console.log(`      skipped: tag ${RELEASE_TAG} is not in this clone (git fetch --tags to check)`);
      this.skip();
    }
    const released = catalogueAt(RELEASE_TAG);
    expect(Object.keys(released.schemas)).to.have.length.greaterThan(0);
    expect(compatibilityProblems(released, currentCatalogue())).to.deep.equal([]);
  });

  it('finds a break in the real catalogue when one is made (the check is not vacuous)', () => {
    const current = currentCatalogue();
    const broken = clone(current);
    const graded = broken.schemas['attempt.graded.v1'] as {
      properties: { data: { properties: Record<string, unknown> } };
    };
    delete graded.properties.data.properties.wrongAnswerTopics;
    (broken.defs['defs/common.json'] as { $defs: { role: { enum: string[] } } }).$defs.role.enum.pop();
    const problems = compatibilityProblems(current, broken);
    expect(problems).to.include('attempt.graded.v1: .data.wrongAnswerTopics: removed property');
    expect(problems.filter((p) => p.includes('narrowed enum (removed ["ADMIN"])'))).to.have.length.greaterThan(0);
  });
});
