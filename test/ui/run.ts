// Runs the UI tests (test/ui/*.ui.ts) with mocha under tsx and exits non-zero when one fails.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runMocha } from '../shared/runMocha';

async function main(): Promise<number> {
  // VF_UI_ONLY=failingTestTerminal runs only the files whose name contains it (default: every file).
  const only = process.env.VF_UI_ONLY ?? '';
  const files = readdirSync(__dirname)
    .filter((file) => file.endsWith('.ui.ts') && file.includes(only))
    .sort()
    .map((file) => join(__dirname, file));
  const started = Date.now();
  // Tests share one workbench per file (started in `before`), so a test's own timeout only covers its steps.
  const { failed } = await runMocha(files, { timeout: 180_000, slow: 20_000 });
  console.log(`UI tests: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
