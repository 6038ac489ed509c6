// Bundles the integration suite (test/integration/suite/**/*.ts) for the extension host into
// out/test/integration/suite/, one CommonJS file per test file plus index.js; vscode and mocha stay external.
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS build script, in the shape of the root esbuild.js */
const { readdirSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const esbuild = require('esbuild');

const suite = join(__dirname, 'suite');
const outdir = join(__dirname, '..', '..', 'out', 'test', 'integration', 'suite');

async function main() {
  const entryPoints = readdirSync(suite, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(suite, file));
  rmSync(outdir, { recursive: true, force: true }); // no stale tests from deleted files
  await esbuild.build({
    entryPoints,
    outbase: suite,
    outdir,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  console.log(`built ${entryPoints.length} files into out/test/integration/suite/`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
