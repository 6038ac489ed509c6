// Stands in for a VS Code executable in `runTests({ vscodeExecutablePath })`: runs the extension tests in
// code-server's workbench in headless Chromium, forwards their log and exits with their exit code.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { openBrowser, type Browser } from './browser';
import { MissingToolError, startCodeServer, type CodeServer } from './codeServer';

/** What the launcher takes from the command line `runTests()` builds; every other flag is ignored. */
export interface LaunchArgs {
  extensionDevelopmentPaths: string[];
  extensionTestsPath?: string;
  userDataDir?: string;
  extensionsDir?: string;
  folder?: string;
  ignored: string[];
}

export function parseLaunchArgs(argv: readonly string[]): LaunchArgs {
  const out: LaunchArgs = { extensionDevelopmentPaths: [], ignored: [] };
  for (const arg of argv) {
    const [flag, ...rest] = arg.split('=');
    const value = rest.join('=');
    if (flag === '--extensionDevelopmentPath') out.extensionDevelopmentPaths.push(resolve(value));
    else if (flag === '--extensionTestsPath') out.extensionTestsPath = resolve(value);
    else if (flag === '--user-data-dir') out.userDataDir = resolve(value);
    else if (flag === '--extensions-dir') out.extensionsDir = resolve(value);
    else if (!arg.startsWith('-')) out.folder = resolve(arg);
    else out.ignored.push(arg);
  }
  return out;
}

/**
 * The workbench URL that runs extension tests, as VS Code's own web test runner builds it: paths on the
 * server are `vscode-remote://` URIs with the server's authority.
 */
export function testsUrl(server: CodeServer, args: LaunchArgs): string {
  const remote = (path: string) => server.remoteAuthority + pathToFileURL(path).pathname;
  const payload: [string, string][] = args.extensionDevelopmentPaths.map((p) => ['extensionDevelopmentPath', remote(p)]);
  if (args.extensionTestsPath) payload.push(['extensionTestsPath', remote(args.extensionTestsPath)]);
  const query = [
    ...(args.folder ? [`folder=${encodeURIComponent(args.folder)}`] : []),
    `payload=${encodeURIComponent(JSON.stringify(payload))}`,
  ];
  return `${server.url}/?${query.join('&')}`;
}

/**
 * The workbench's own start-up messages, which arrive through the same hook as the tests' output (all as
 * `info`); hidden unless VERIFIED_FIX_VERBOSE=1 so the log shows the tests.
 */
const workbenchChatter =
  /^(Ignoring fetching additional builtin extensions|Updating additional builtin extensions cache|Creating a socket|Resolving connection token|Resolved connection token|\[Service Worker\]|ChatSessionStore:|Creation of workbench contribution)/;

const timeoutMs = Number(process.env.VERIFIED_FIX_TEST_TIMEOUT_MS) || 15 * 60_000;
const verbose = process.env.VERIFIED_FIX_VERBOSE === '1';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseLaunchArgs(argv);
  if (!args.extensionTestsPath || args.extensionDevelopmentPaths.length === 0) {
    console.error('usage: code-server-launcher --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [--user-data-dir=DIR] [--extensions-dir=DIR] [FOLDER]');
    return 2;
  }
  if (verbose && args.ignored.length) console.log(`[launcher] ignoring ${args.ignored.join(' ')}`);

  // Signals: codeServer.ts kills the process group and exits; Playwright closes the browser on exit.
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  const cleanup = async () => {
    await browser?.close();
    await server?.stop();
  };
  try {
    const started = Date.now();
    // runTests always passes <cwd>/.vscode-test/{user-data,extensions}. Several runs in one working tree
    // (engineers, watch mode) would share them and a run would restore the last one's editors, so each run
    // gets a fresh profile unless VERIFIED_FIX_REUSE_PROFILE=1.
    const reuse = process.env.VERIFIED_FIX_REUSE_PROFILE === '1';
    server = await startCodeServer({
      folder: args.folder,
      userDataDir: reuse ? args.userDataDir : undefined,
      extensionsDir: reuse ? args.extensionsDir : undefined,
    });
    console.log(`[launcher] code-server ${server.url} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    browser = await openBrowser();
    const { page } = browser;

    let finish: (code: number) => void = () => undefined;
    const finished = new Promise<number>((resolveCode) => (finish = resolveCode));
    await page.exposeFunction('codeAutomationLog', (type: string, logArgs: unknown[]) => {
      const line = format(...(Array.isArray(logArgs) ? logArgs : [logArgs]));
      if (!verbose && workbenchChatter.test(line)) return;
      process.stdout.write(type === 'error' ? `[error] ${line}\n` : `${line}\n`);
    });
    await page.exposeFunction('codeAutomationExit', (code: unknown) => finish(Number.isInteger(code) ? (code as number) : 1));
    page.on('crash', () => {
      console.error('[launcher] the browser page crashed');
      finish(1);
    });
    if (verbose) page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));

    await page.goto(testsUrl(server, args), { waitUntil: 'domcontentloaded', timeout: 120_000 });
    const timer = setTimeout(() => {
      console.error(`[launcher] no result after ${timeoutMs / 1000} s (VERIFIED_FIX_TEST_TIMEOUT_MS); code-server's log ends:\n${server?.logTail()}`);
      finish(1);
    }, timeoutMs);
    const code = await finished;
    clearTimeout(timer);
    console.log(`[launcher] tests exited with ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return code;
  } catch (error) {
    if (error instanceof MissingToolError) console.error(error.message);
    else console.error('[launcher]', error);
    return 1;
  } finally {
    await cleanup();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
