// Lint rules; the one that matters most keeps `vscode` out of the engine (src/core) and the CLI.
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: 'src/core and src/cli must not depend on VS Code: put VS Code code under src/host.' }],
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/fixtures/**', 'examples/**', '.vscode-test/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: 'error',
      'no-console': 'off',
    },
  },
  { files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'src/shared/**/*.ts'], rules: noVscode },
  { files: ['src/host/**/*.ts', 'src/extension.ts'], rules: { 'no-console': 'error' } },
  // The extension's model (what it stores, shows and decides) stays testable with `node --test`: no `vscode`, even as a type.
  {
    files: ['src/host/model/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/host/model is vscode-free so it can be unit-tested: keep VS Code calls in src/host.' }] },
      ],
    },
  },
);
