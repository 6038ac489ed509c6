// Bundles the extension and the CLI; type-checking is `tsc --noEmit` (npm run check-types).
const { chmodSync, existsSync } = require('node:fs');
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// Unit tests and the benchmark are bundled too: execa and its dependencies are ESM-only, which CommonJS
// loaders (and TypeScript loaders running as CommonJS) cannot require, while esbuild resolves them.
const tests = process.argv.includes('--tests');

/** Prints errors in the shape VS Code's `$esbuild-watch` problem matcher expects. */
const problemMatcherPlugin = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  plugins: [problemMatcherPlugin],
  // `verified-fix --version` (src/cli/helpText.ts): package.json's version, fixed in the bundle.
  define: { VERIFIED_FIX_VERSION: JSON.stringify(require('./package.json').version) },
};

const targets = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The mutation generator's worker thread (src/core/mutation/parseClient.ts finds it beside the bundle it runs in).
  { ...common, entryPoints: ['src/core/mutation/parseWorker.ts'], outfile: 'dist/parseWorker.js' },
];
if (tests) {
  // Bundles of tests that were moved or deleted would still match the runners' globs: start from an empty out/.
  for (const dir of ['out/test/unit', 'out/test/e2e', 'out/bench']) require('node:fs').rmSync(dir, { recursive: true, force: true });
  const { readdirSync } = require('node:fs');
  // Both tiers (CONTRIBUTING.md, "Scripts"): test/unit/*.test.ts spawn nothing; test/e2e/<stage>/*.test.ts spawn
  // processes or run the engine and the CLI (test:e2e runs one folder level). Each lands at its path under out/.
  const { sep } = require('node:path');
  const testFiles = (dir, recursive) =>
    readdirSync(dir, { recursive }).filter((f) => f.endsWith('.test.ts')).map((f) => `${dir}/${f.split(sep).join('/')}`);
  targets.push({
    ...common,
    entryPoints: [...testFiles('test/unit', false), ...testFiles('test/e2e', true), 'bench/bench.ts', 'bench/repairBench.ts', 'bench/projectsBench.ts', 'bench/mutationPriorBench.ts'],
    outdir: 'out',
    outbase: '.',
    sourcemap: 'inline',
    // Tools the tests drive as they are; bundling them would only slow the build.
    external: ['eslint', 'typescript', 'typescript-eslint', 'esbuild', 'playwright-core', 'mocha', '@vscode/test-electron'],
  });
}

// The mutation provider's parser is WebAssembly loaded at run time: the bundles find these copies in dist/grammars
// (src/core/mutation/grammars.ts lists the same files).
const wasmFiles = [
  'web-tree-sitter/tree-sitter.wasm',
  ...['javascript', 'typescript', 'tsx', 'python', 'java', 'go'].map((g) => `@vscode/tree-sitter-wasm/wasm/tree-sitter-${g}.wasm`),
];
function copyGrammars() {
  const { copyFileSync, mkdirSync } = require('node:fs');
  const { basename } = require('node:path');
  mkdirSync('dist/grammars', { recursive: true });
  for (const file of wasmFiles) copyFileSync(require.resolve(file), `dist/grammars/${basename(file)}`);
}

async function main() {
  copyGrammars();
  const contexts = await Promise.all(targets.map((options) => esbuild.context(options)));
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  try {
    await Promise.all(contexts.map((ctx) => ctx.rebuild()));
    // `bin.verified-fix` points at the CLI bundle; npm links it, but a direct `./dist/cli.js` needs the bit too.
    if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
  } finally {
    await Promise.all(contexts.map((ctx) => ctx.dispose()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
