// Lint budget after Pepr: small functions, shallow nesting, few parameters, no floating promises.
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

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
    // The operator may use the kit's config (Kafka's connection and topic reads among it), logging,
    // metrics, process (runProcess), secrets and timing (withTimeout, backoffMs), nothing else from services/
    // (none of these imports express, mongoose or kafkajs).
    files: ['operator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '/services/(?!kit/src/(config|config-error|kafka-config|kafka-topics|logging|metrics|process|secrets|timing)\\.js$)',
              message:
                'the operator imports only kit config, config-error, kafka-config, kafka-topics, logging, metrics, process, secrets and timing',
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
              regex:
                '/services/(?!kit/src/(config|config-error|kafka-config|kafka-topics|logging|metrics|process|secrets|timing)\\.js$|kit/test/support/(secure-infra|servers)\\.js$)',
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
);
