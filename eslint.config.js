// Lint rules: typescript-eslint's recommended set, plus the few we care about for correctness.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '.tributary/**', '.turbo/**'] },
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
    // The CLI, scripts and benchmarks talk to a terminal on purpose.
    files: [
      'infra/src/cli/**',
      'infra/src/scripts/**',
      'infra/bin/**',
      'test/src/bench/**',
      'test/src/run-tests.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
