// Lint rules; the one that matters most keeps `vscode` out of the engine (src/core) and the CLI.
import tseslint from 'typescript-eslint';

const vscodePath = { name: 'vscode', message: 'src/core and src/cli must not depend on VS Code: put VS Code code under src/host.' };
const noVscode = { 'no-restricted-imports': ['error', { paths: [vscodePath] }] };

/**
 * The engine's stages, lowest first: a folder of src/core imports only folders of lower layers (and itself), so the
 * pipeline reads bottom-up and no cycle can form. test/unit/layering.test.ts checks the same order over the real
 * import graph. A new stage gets a layer here; a new import that breaks the order means the code is in the wrong folder.
 */
export const CORE_LAYERS = [
  ['base', 'security'],
  ['contract', 'testResults'],
  ['mutation', 'testCommand', 'statistics', 'sandbox'],
  ['isolation'],
  ['execution', 'request'],
  ['verification', 'providers', 'behaviour'],
  ['localisation'],
  ['engine'],
];

/** One lint block per core folder: vscode, the front ends and every folder of its own or a higher layer are off limits. */
function layerBlocks() {
  return CORE_LAYERS.flatMap((layer, rank) =>
    layer.map((folder) => {
      const above = CORE_LAYERS.slice(rank).flat().filter((other) => other !== folder);
      return {
        files: [`src/core/${folder}/**/*.ts`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              paths: [vscodePath],
              patterns: [
                ...above.map((other) => ({
                  group: [`../${other}`, `../${other}/*`],
                  message: `src/core/${folder} is below src/core/${other} (eslint.config.mjs CORE_LAYERS): move the shared piece down, or this code up.`,
                })),
                { group: ['**/host', '**/host/*', '**/cli', '**/cli/*', '**/extension'], message: 'src/core never depends on a front end.' },
              ],
            },
          ],
        },
      };
    }),
  );
}

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
  ...layerBlocks(),
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
