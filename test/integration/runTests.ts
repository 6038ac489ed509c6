// Runs the integration suite inside a real VS Code through @vscode/test-electron's runTests: code-server in
// headless Chromium where it is installed (.ci/install-vscode.sh), else the desktop VS Code runTests downloads.
// Builds nothing: `npm run test:integration` bundles the extension and the suite first.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { findCodeServer, MissingToolError, requireCodeServer } from './launcher/codeServer';

const root = resolve(__dirname, '..', '..');
const launcher = join(__dirname, 'launcher', 'code-server-launcher');
const fixture = join(root, 'test', 'fixtures', 'integration-ws');
const installHint = 'Run .ci/install-vscode.sh to install code-server and Debian chromium (see CONTRIBUTING.md).';

/** `code-server` (required), `desktop` (download VS Code), or automatic: code-server when installed. */
function chooseVscode(): { kind: 'code-server' | 'desktop'; executable?: string } {
  const wanted = process.env.VERIFIED_FIX_VSCODE ?? 'auto';
  if (wanted === 'desktop') return { kind: 'desktop' };
  const codeServer = findCodeServer();
  if (codeServer) return { kind: 'code-server', executable: launcher };
  if (wanted === 'code-server' || process.env.CI) requireCodeServer(); // throws, saying where it looked
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    throw new MissingToolError(`code-server not found, and desktop VS Code cannot run here without a display. ${installHint}`);
  }
  console.log(`code-server not found: using desktop VS Code downloaded by @vscode/test-electron. (${installHint})`);
  return { kind: 'desktop' };
}

async function main(): Promise<number> {
  const extensionTestsPath = join(root, 'out', 'test', 'integration', 'suite', 'index');
  for (const [file, how] of [
    [join(root, 'dist', 'extension.js'), 'node esbuild.js'],
    [`${extensionTestsPath}.js`, 'node test/integration/build.js'],
  ]) {
    if (!existsSync(file)) {
      console.error(`${file} is missing: run ${how} (npm run test:integration does both).`);
      return 2;
    }
  }
  const vscode = chooseVscode();
  // A fresh copy, so tests may edit and save files without touching the repository.
  // (No signal hooks here: on Ctrl+C, runTests asks the launcher to stop and then returns, reaching finally.)
  const copy = mkdtempSync(join(tmpdir(), 'vf-integration-'));
  const workspace = join(copy, 'integration-ws');
  cpSync(fixture, workspace, { recursive: true });
  const started = Date.now();
  try {
    await runTests({
      vscodeExecutablePath: vscode.executable,
      extensionDevelopmentPath: root,
      extensionTestsPath,
      launchArgs: [workspace, '--disable-extensions'],
    });
    return 0;
  } catch (error) {
    // runTests rejects with the exit code when tests fail; a failed download or launch says why.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`integration tests failed: ${message}`);
    if (vscode.kind === 'desktop' && !/Test run failed with code/.test(message)) console.error(installHint);
    return 1;
  } finally {
    console.log(`integration run (${vscode.kind}): ${((Date.now() - started) / 1000).toFixed(1)} s`);
    rmSync(copy, { recursive: true, force: true, maxRetries: 3 });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof MissingToolError ? error.message : error);
    process.exit(error instanceof MissingToolError ? 2 : 1);
  },
);
