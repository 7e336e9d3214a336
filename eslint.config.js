// Lint budget after Pepr: small functions, shallow nesting, few parameters, no floating promises.
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

// Import zones (issue 24): each service's api (routes, schemas, app, service, main, consumers) may
// import its own domain, the domain its own store, and the store (and the adapters in
// integrations/) nothing above them; no service imports another; the kit is reached through its
// layers' entry points (services/kit/src/<layer>/index.ts) only, tests adding the kit's
// test/support helpers. Inside the kit, a layer imports the layers below it through their entry
// points and never a layer above (KIT_LAYERS).
// Relative specifiers are matched, so the layer rules are written per depth below src/.
const SERVICES = [
  'analytics',
  'attempt',
  'auth',
  'document-import',
  'gateway',
  'notification',
  'peers',
  'question-bank',
  'user',
];
const K8S_TESTS = { group: ['**/k8s-tests/**'], message: 'nothing imports k8s-tests' };
/** Files at src/ level that make a service's api and process wiring: nothing below them imports them. */
const API = '(routes|schemas)(/|\\.js$)|(app|admin-routes|consumer|main|service|wiring)\\.js$';
const up = (depth) => `^(\\.\\./){${depth}}`;

const otherServices = (own) => ({
  regex: `(^|/)(${SERVICES.filter((s) => s !== own).join('|')})/(src|test)/`,
  message: `services/${own} imports only its own files and the kit (issue 24: no service imports another)`,
});
/** The kit's layers (services/kit/src/<layer>/), each with the layers it may import, lowest first. */
const KIT_LAYERS = {
  core: [],
  bus: ['core'],
  data: ['core', 'bus'],
  http: ['core', 'data'],
  service: ['core', 'bus', 'data', 'http'],
};
const LAYER_ENTRY = `(${Object.keys(KIT_LAYERS).join('|')})/index\\.js$`;
const kitEntry = (tests) => ({
  regex: tests ? `(^|/)kit/(src/(?!${LAYER_ENTRY})|test/(?!support/))` : `(^|/)kit/(?!src/${LAYER_ENTRY})`,
  message: tests
    ? 'the kit is imported through its layers` entry points, services/kit/src/<layer>/index.ts (tests may add kit/test/support helpers)'
    : 'the kit is imported through its layers` entry points, services/kit/src/<layer>/index.ts, only',
});
/** Inside the kit: a layer imports the layers below it through their index, nothing above it, not its own index. */
function kitLayerZone(layer) {
  const below = KIT_LAYERS[layer];
  const others = Object.keys(KIT_LAYERS).filter((l) => l !== layer && !below.includes(l));
  const patterns = [
    {
      regex: '^(\\./|(\\.\\./)+)index\\.js$',
      message: `the kit's ${layer} layer imports its own files, not its entry point (the entry is for the layers above)`,
    },
  ];
  if (below.length > 0) {
    patterns.push({
      regex: `^(\\.\\./)+(${below.join('|')})/(?!index\\.js$)`,
      message: `the kit's ${layer} layer imports ${below.join(', ')} through their entry points (<layer>/index.ts) only`,
    });
  }
  if (others.length > 0) {
    patterns.push({
      regex: `^(\\.\\./)+(${others.join('|')})/`,
      message: `the kit's ${layer} layer imports only ${below.join(', ') || 'its own files'}, never ${others.join(', ')} (issue 24: layers in one direction)`,
    });
  }
  return restrict([`services/kit/src/${layer}/**/*.ts`], patterns);
}
/** The core layer loads no driver (the operator imports it): express, mongoose, mongodb, kafkajs as types only. */
const coreDrivers = {
  files: ['services/kit/src/core/**/*.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: ['express', 'mongoose', 'mongodb', 'kafkajs', 'busboy'].map((name) => ({
          name,
          allowTypeImports: true,
          message: 'the kit`s core loads no driver (the operator imports it): import its types only',
        })),
      },
    ],
  },
};
/** From a file `depth` folders below src/: any other folder or file of the service (not the kit, not its types file). */
const storeOnly = {
  regex: `${up(1)}(?!\\.\\./\\.\\./|types\\.js$)`,
  message: 'the store imports only the store, the kit and the service types file (api -> domain -> store)',
};
const noApi = (depth) => ({
  regex: `${up(depth)}(${API})`,
  message: 'domain code never imports the api (routes, schemas, app, service, main, consumers)',
});
/** Domain code takes the kit's pure and storage layers; HTTP (and the service assembly above it) stays in the api. */
const noKitHttp = {
  regex: '(^|/)kit/src/(http|service)/',
  message: "domain code uses the kit's core, data and bus layers, never its HTTP layer",
};
const noUpper = {
  regex: `${up(1)}((${API})|(domain|store|jobs|worker)/)`,
  message: 'adapters (integrations/) import no api, domain, store, jobs or worker code',
};
const DRIVERS = [
  { name: 'express', message: 'domain code has no HTTP' },
  { name: 'kafkajs', message: 'domain code reaches Kafka through the kit' },
  { name: 'mongoose', message: 'domain code reaches MongoDB through its store' },
  { name: 'mongodb', message: 'domain code reaches MongoDB through its store' },
];
const restrict = (files, patterns, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths, patterns: [K8S_TESTS, ...patterns] }] },
});
const noStore = (depth) => ({
  regex: `${depth === 0 ? '^\\./' : up(depth)}store/`,
  message: 'the api reaches the store through the domain (api -> domain -> store)',
});
/** A dynamic import() of another service is refused too (no-restricted-imports reads only static ones). */
const noDynamicService = (own) => ({
  selector: `ImportExpression[source.value=/(^|\\u002F)(${SERVICES.filter((s) => s !== own).join('|')})\\u002Fsrc\\u002F/]`,
  message: `services/${own} imports only its own files and the kit (issue 24: no service imports another)`,
});

function serviceZones(svc) {
  const src = `services/${svc}/src`;
  const own = [otherServices(svc), kitEntry(false)];
  const domainDepths = [1, 2, 3].map((d) =>
    restrict([`${src}/domain/${'*/'.repeat(d - 1)}*.ts`], [...own, noApi(d), noKitHttp], DRIVERS),
  );
  return [
    restrict([`${src}/**/*.ts`], own),
    { files: [`${src}/**/*.ts`], rules: { 'no-restricted-syntax': ['error', noDynamicService(svc)] } },
    restrict([`services/${svc}/test/**/*.ts`], [kitEntry(true)]),
    restrict([`${src}/store/*.ts`], [...own, storeOnly]),
    restrict([`${src}/integrations/*.ts`], [...own, noUpper]),
    restrict(
      ['routes', 'schemas', 'app', 'admin-routes', 'consumer'].map((api) => `${src}/${api}.ts`),
      [...own, noStore(0)],
    ),
    restrict([`${src}/routes/**/*.ts`, `${src}/schemas/**/*.ts`], [...own, noStore(1)]),
    ...domainDepths,
  ];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'charts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      complexity: ['error', 10],
      'max-depth': ['error', 3],
      'max-params': ['error', 4],
      'max-lines': ['warn', { max: 250, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/k8s-tests/**'], message: 'nothing imports k8s-tests' }] },
      ],
    },
  },
  {
    // User text is matched everywhere (uploads, review text, headers): a pattern that can backtrack
    // super-linearly is a way to stall an event loop, so it does not pass lint (issue 20).
    files: ['services/**/*.ts', 'operator/**/*.ts', 'kafka/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    files: ['**/test/**/*.ts', 'k8s-tests/**/*.ts', 'bench/**/*.ts'],
    rules: { 'max-lines': 'off', complexity: 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The operator may use the kit's core layer (config, Kafka's connection settings, logging,
    // metrics, runProcess, secrets, timing), through its entry point or the import-free timing
    // module, nothing else from services/ (the core loads neither express, mongoose nor kafkajs).
    files: ['operator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/services/(?!kit/src/core/(index|timing)\\.js$)',
              message: 'the operator imports only the kit`s core layer (core/index.ts, or core/timing.ts alone)',
            },
          ],
        },
      ],
    },
  },
  {
    // The operator's tests may also use the kit's test servers (the local profiles' helpers).
    files: ['operator/test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/services/(?!kit/src/core/(index|timing)\\.js$|kit/test/support/(secure-infra|servers)\\.js$)',
              message:
                'operator tests import only the kit modules the operator may, and the kit test servers (support/secure-infra, support/servers)',
            },
          ],
        },
      ],
    },
  },
  {
    // Domain files hold decisions: no HTTP, no storage driver, no environment.
    files: ['services/*/src/domain/**/*.ts', 'operator/src/controller/decide.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['express', 'kafkajs'],
          patterns: [{ group: ['**/routes*'], message: 'domain never imports routes' }],
        },
      ],
    },
  },

  ...SERVICES.flatMap(serviceZones),
  ...Object.keys(KIT_LAYERS).map(kitLayerZone),
  coreDrivers,
  // Outside services/ (the CLI, cross-service tests, the Kafka catalogue, benchmarks, cluster and
  // security tests, scripts' programs) the kit is reached through its entry point too.
  restrict(
    [
      'services/cli.ts',
      'services/test/**/*.ts',
      'kafka/**/*.ts',
      'bench/**/*.ts',
      'k8s-tests/**/*.ts',
      'security/**/*.ts',
      'scripts/**/*.ts',
    ],
    [kitEntry(true)],
  ),
  // The infra readiness probe runs on every start of the test servers: it takes the kit's
  // import-free timing module (as the operator does), not an entry point that loads drivers.
  {
    files: ['scripts/lib/probe.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            K8S_TESTS,
            {
              regex: `(^|/)kit/(?!src/(${LAYER_ENTRY}|core/timing\\.js$))`,
              message: 'the probe imports only a kit layer entry or core/timing',
            },
          ],
        },
      ],
    },
  },
);
