// The mocha entry point VS Code's extension host loads (--extensionTestsPath): runs every *.test.js beside it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runMocha } from '../../shared/runMocha';

/** Called by the extension host; rejecting makes VS Code exit non-zero. */
export async function run(): Promise<void> {
  const files = readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .map((file) => join(__dirname, file));
  if (files.length === 0) throw new Error(`no *.test.js files in ${__dirname}: run node test/integration/build.js`);
  // Generous timeouts: the first command in a fresh extension host may wait for activation and the file system.
  const { failed } = await runMocha(files, { timeout: 60_000, slow: 5_000 });
  if (failed > 0) throw new Error(`${failed} integration test${failed === 1 ? '' : 's'} failed`);
}
