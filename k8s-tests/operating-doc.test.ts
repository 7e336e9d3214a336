// docs/operating.md stays exact: every chart value it names exists in the chart's values.yaml,
// every repository file it names exists, and its Strimzi KafkaTopic list is the topic catalogue
// (kafka/topics.json: every topic, its partitions and cleanup policy, nothing else). Pure: reads
// files only.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

/* eslint-disable @typescript-eslint/no-explicit-any -- values.yaml and the KafkaTopic documents are untyped YAML */
type Obj = Record<string, any>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = readFileSync(path.join(root, 'docs', 'operating.md'), 'utf8');
const values = parseYaml(readFileSync(path.join(root, 'charts', 'edu-platform', 'values.yaml'), 'utf8')) as Obj;
const catalogue = (JSON.parse(readFileSync(path.join(root, 'kafka', 'topics.json'), 'utf8')) as Obj).topics as Obj[];

const FENCE = /^```[^\n]*\n[\s\S]*?^```$/gm;
const prose = doc.replace(FENCE, '');
const fences = doc.match(FENCE) ?? [];

/** Inline code spans of the prose (fenced blocks left out), their first word. */
function inlineCode(): string[] {
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => (m[1] ?? '').trim().split(/[\s:=]/)[0] ?? '');
}

/** Whether a dotted path exists in values.yaml; `<name>` stands for any key at that level. */
function valueExists(dotted: string): boolean {
  let level: unknown[] = [values];
  for (const part of dotted.split('.')) {
    level = level.flatMap((node) => {
      if (!node || typeof node !== 'object') return [];
      const o = node as Obj;
      if (/^<[a-z]+>$/.test(part)) return Object.values(o);
      return Object.prototype.hasOwnProperty.call(o, part) ? [o[part]] : [];
    });
  }
  return level.length > 0;
}

/** Dotted names whose first part is a top-level value: the doc's citations of chart values. */
function citedValues(): string[] {
  const tops = new Set(Object.keys(values));
  const fromSet = fences.flatMap((f) => [...f.matchAll(/--set ([A-Za-z0-9.<>_-]+)=/g)].map((m) => m[1] ?? ''));
  const dotted = [...inlineCode(), ...fromSet].filter((t) => /^[a-zA-Z][\w-]*(\.[\w<>-]+)+$/.test(t));
  return [...new Set(dotted.filter((t) => tops.has(t.split('.')[0] ?? '') && !/\.(md|ya?ml|json|sh|ts|io)$/.test(t)))];
}

function kafkaTopicBlock(): Obj[] {
  const m = /<!-- kafka-topics:begin -->\s*```yaml\n([\s\S]*?)```\s*<!-- kafka-topics:end -->/.exec(doc);
  expect(m, 'the kafka-topics:begin/end block in docs/operating.md').to.not.equal(null);
  return parseAllDocuments(m?.[1] ?? '')
    .map((d) => d.toJS() as Obj)
    .filter(Boolean);
}

describe('docs/operating.md (the cluster admin guide)', function () {
  it('cites chart values that exist in values.yaml, and only those', function () {
    const cited = citedValues();
    expect(cited.length, 'value citations found').to.be.greaterThan(40);
    for (const must of ['kafka.tls.caSecret.name', 'mongodb.auth.existingSecret', 'secrets.existingSecret'])
      expect(cited).to.include(must);
    const missing = cited.filter((v) => !valueExists(v));
    expect(missing, 'values named in docs/operating.md but not in values.yaml').to.deep.equal([]);
  });

  it('names repository files that exist', function () {
    const files = inlineCode().filter((t) => /^[a-z][\w.-]*\/[\w./-]*\.(md|ya?ml|json|sh|ts)$/.test(t));
    const links = [...prose.matchAll(/\]\(([\w./-]+\.md)\)/g)].map((m) => path.join('docs', m[1] ?? ''));
    expect(files).to.include('charts/edu-platform/examples/values-strimzi-tls.yaml');
    const absent = [...files, ...links].filter((f) => !existsSync(path.join(root, f)));
    expect(absent, 'files named in docs/operating.md').to.deep.equal([]);
  });

  it('lists every topic of kafka/topics.json as a KafkaTopic with its partitions and cleanup policy', function () {
    const prefix = 'edu.';
    const listed = kafkaTopicBlock().map((t) => {
      expect(t.kind).to.equal('KafkaTopic');
      expect(t.metadata.name.startsWith(prefix), t.metadata.name).to.equal(true);
      return {
        name: String(t.metadata.name).slice(prefix.length),
        partitions: t.spec.partitions,
        cleanupPolicy: t.spec.config['cleanup.policy'],
      };
    });
    const expected = catalogue.map((t) => ({ name: t.name, partitions: t.partitions, cleanupPolicy: t.cleanupPolicy }));
    expect(listed).to.deep.equal(expected);
  });

  it('knows a made-up value from a real one (the check above can fail)', function () {
    expect(valueExists('kafka.tls.caSecret.name')).to.equal(true);
    expect(valueExists('services.<name>.resources')).to.equal(true);
    expect(valueExists('kafka.tls.caSecrets.name')).to.equal(false);
    expect(valueExists('services.<name>.noSuchValue')).to.equal(false);
  });
});
