// Lint rules: typescript-eslint's recommended set, plus the few we care about for correctness.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '.tributary/**', '.turbo/**', '**/.tsbuild/**', 'infra/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // On Node 20 a key from generateKeyPair(Sync) shares a lock with the job that made it, and exporting
    // it while a garbage collection frees that job deadlocks the thread for good (a test run hung on it).
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'ImportSpecifier[imported.name=/^generateKeyPair(Sync)?$/]',
          'MemberExpression[property.name=/^generateKeyPair(Sync)?$/]',
        ].map((selector) => ({
          selector,
          message:
            'make Ed25519 keys with generateSigningKey (infra/src/signing/ed25519-keys.ts): see why there',
        })),
      ],
    },
  },
  {
    // Every call out goes through adapters/src/outbound (address policy on every hop, no redirects,
    // timeouts, size limits): no other HTTP client in product code.
    files: ['domain/src/**', 'services/src/**', 'projections/src/**', 'adapters/src/**', 'infra/src/**'],
    ignores: ['adapters/src/outbound/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'call out through the outbound client (adapters/src/outbound)' },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'node:https', 'http', 'https', 'undici', 'node-fetch', 'axios', 'got'].map(
            (name) => ({
              name,
              allowTypeImports: true,
              message: 'call out through the outbound client (adapters/src/outbound)',
            }),
          ),
        },
      ],
    },
  },
  {
    // The CLI, scripts and benchmarks talk to a terminal on purpose.
    files: [
      'infra/src/cli/**',
      'infra/src/scripts/**',
      'infra/bin/**',
      'test/src/bench/**',
      'test/src/load/**',
      'test/src/vitest/**',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    // The pages' browser modules (docs/web.md#assets): browser globals, and fetch to our own REST routes
    // (same origin, the page's connect-src), which is not a call out.
    files: ['adapters/src/web/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-globals': 'off' },
  },
);
