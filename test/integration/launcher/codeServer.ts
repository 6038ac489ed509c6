// Finds, starts and stops code-server (a real VS Code server) for the integration and UI tests.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The code-server release `.ci/install-vscode.sh` installs: the newest one whose Node requirement allows Node 20. */
export const CODE_SERVER_VERSION = '4.100.3';

/** A tool the tests need is not installed; the message says how to install it. */
export class MissingToolError extends Error {
  override readonly name = 'MissingToolError';
}

const installHint = 'Run .ci/install-vscode.sh to install code-server and Debian chromium (see CONTRIBUTING.md).';

/** The cache folder `.ci/install-vscode.sh` installs into (outside the repository). */
export function cacheDir(): string {
  return process.env.VERIFIED_FIX_CACHE || join(homedir(), '.cache', 'verified-fix');
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * code-server's executable, looked up in order: `$VERIFIED_FIX_CODE_SERVER`, the cache folder of
 * `.ci/install-vscode.sh`, `code-server` on PATH. Undefined when none is there.
 */
export function findCodeServer(): string | undefined {
  const fromEnv = process.env.VERIFIED_FIX_CODE_SERVER;
  if (fromEnv) {
    if (!isExecutableFile(fromEnv)) throw new MissingToolError(`VERIFIED_FIX_CODE_SERVER=${fromEnv} is not an executable file. ${installHint}`);
    return resolve(fromEnv);
  }
  const cached = join(cacheDir(), 'code-server', 'node_modules', '.bin', 'code-server');
  return isExecutableFile(cached) ? cached : onPath('code-server');
}

/** Like {@link findCodeServer}, but a missing code-server is an error that says how to install it. */
export function requireCodeServer(): string {
  const found = findCodeServer();
  if (found) return found;
  throw new MissingToolError(
    `code-server not found (looked at $VERIFIED_FIX_CODE_SERVER, ${join(cacheDir(), 'code-server')} and PATH). ${installHint}`,
  );
}

/** Chromium's executable: `$VERIFIED_FIX_CHROMIUM`, else `chromium` (Debian) or `chromium-browser` on PATH. */
export function requireChromium(): string {
  const fromEnv = process.env.VERIFIED_FIX_CHROMIUM;
  if (fromEnv) {
    if (!isExecutableFile(fromEnv)) throw new MissingToolError(`VERIFIED_FIX_CHROMIUM=${fromEnv} is not an executable file. ${installHint}`);
    return resolve(fromEnv);
  }
  const found = onPath('chromium') ?? onPath('chromium-browser');
  if (!found) throw new MissingToolError(`chromium not found on PATH. ${installHint}`);
  return found;
}

/** A free loopback TCP port (the OS picks it; a rare race with another process is retried by the caller). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface CodeServerOptions {
  /** The folder the workbench opens. */
  readonly folder?: string;
  /** VS Code's user data folder; a fresh one in the scratch folder when omitted. */
  readonly userDataDir?: string;
  /** The extensions folder; a fresh one in the scratch folder when omitted. */
  readonly extensionsDir?: string;
  /** `.vsix` files installed (`code-server --install-extension`) before the server starts. */
  readonly installExtensions?: readonly string[];
  /**
   * User settings written to `<userDataDir>/User/settings.json` before the start, over {@link quietSettings};
   * `null` writes nothing.
   */
  readonly settings?: Record<string, unknown> | null;
  /** Milliseconds to wait for `/healthz`. */
  readonly startTimeoutMs?: number;
}

/** A running code-server; `stop()` ends its whole process group and removes its scratch folder. */
export interface CodeServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  /** `vscode-remote://127.0.0.1:PORT`, the authority the workbench gives paths on the server. */
  readonly remoteAuthority: string;
  readonly extensionsDir: string;
  readonly userDataDir: string;
  /** code-server's own log (stdout and stderr), inside the scratch folder. */
  readonly logFile: string;
  /** The last lines of the log, for error messages. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

/**
 * Settings for a test profile: no welcome page or walkthrough taking the focus, no update or telemetry
 * traffic, no git scanning of the workspace copy.
 */
export const quietSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'security.workspace.trust.enabled': false,
};

/** Process groups still running, killed synchronously if this process exits without stopping them. */
const liveGroups = new Set<number>();
/** Scratch folders removed on exit unless removed before (see {@link removeOnExit}). */
const scratchDirs = new Set<string>();
process.on('exit', () => {
  for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL');
  if (!process.env.VERIFIED_FIX_KEEP_SCRATCH) for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Removes `dir` when this process exits, also on SIGINT/SIGTERM/SIGHUP; returns a function that removes
 * it now. For temporary workspace copies and code-server's scratch folders.
 */
export function removeOnExit(dir: string): () => void {
  scratchDirs.add(dir);
  hookSignals();
  return () => {
    scratchDirs.delete(dir);
    if (!process.env.VERIFIED_FIX_KEEP_SCRATCH) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}

let signalsHooked = false;
/**
 * A signal would end this process without 'exit' handlers, leaving the detached code-server running: kill
 * the groups, then exit as the signal would have. (Playwright closes the browser on the same exit.)
 */
function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
    process.on(signal, () => {
      if (liveGroups.size) console.error(`\n${signal}: stopping code-server`);
      process.exit(128 + number); // the 'exit' handler above kills the groups
    });
  }
}

function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

/**
 * The environment code-server runs with: its temp, config, data and cache folders inside `scratch` (else it
 * writes under ~), no marketplace, and none of the variables of a VS Code this process may run inside.
 */
function serverEnv(scratch: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('VSCODE_') && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
  }
  for (const dir of ['tmp', 'config', 'data', 'cache']) mkdirSync(join(scratch, dir), { recursive: true });
  return {
    ...env,
    TMPDIR: join(scratch, 'tmp'),
    XDG_CONFIG_HOME: join(scratch, 'config'),
    XDG_DATA_HOME: join(scratch, 'data'),
    XDG_CACHE_HOME: join(scratch, 'cache'),
    EXTENSIONS_GALLERY: '{}',
  };
}

/** Starts code-server on a free loopback port in its own process group and waits until `/healthz` answers. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const bin = requireCodeServer();
  const scratch = mkdtempSync(join(tmpdir(), 'vf-code-server-'));
  const removeScratch = removeOnExit(scratch);
  try {
    const env = serverEnv(scratch);
    const userDataDir = options.userDataDir ?? join(scratch, 'user-data');
    const extensionsDir = options.extensionsDir ?? join(scratch, 'extensions');
    mkdirSync(userDataDir, { recursive: true });
    mkdirSync(extensionsDir, { recursive: true });
    if (options.settings !== null) {
      mkdirSync(join(userDataDir, 'User'), { recursive: true });
      writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...quietSettings, ...options.settings }, null, 2));
    }
    const profile = [`--user-data-dir=${userDataDir}`, `--extensions-dir=${extensionsDir}`];
    for (const vsix of options.installExtensions ?? []) {
      const r = spawnSync(bin, [...profile, '--install-extension', vsix, '--force'], { env, encoding: 'utf8', timeout: 120_000 });
      if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await launch(bin, scratch, removeScratch, env, profile, { ...options, userDataDir, extensionsDir });
      } catch (error) {
        // Another process may have taken the port between freePort() and code-server's listen.
        if (attempt >= 3 || !(error instanceof PortTakenError)) throw error;
      }
    }
  } catch (error) {
    removeScratch();
    throw error;
  }
}

class PortTakenError extends Error {}

async function launch(
  bin: string,
  scratch: string,
  removeScratch: () => void,
  env: NodeJS.ProcessEnv,
  profile: string[],
  options: CodeServerOptions & { userDataDir: string; extensionsDir: string },
): Promise<CodeServer> {
  const port = await freePort();
  const config = join(scratch, 'config.yaml');
  writeFileSync(config, 'auth: none\ncert: false\n');
  const logFile = join(scratch, `code-server-${port}.log`);
  const logFd = openSync(logFile, 'a');
  const args = [
    '--config', config,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...profile,
    ...(options.folder ? [options.folder] : []),
  ];
  // detached: its own process group, so stop() reaches the file watchers and extension hosts it forks too.
  const child = spawn(bin, args, { env, detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const pgid = child.pid;
  if (pgid === undefined) throw new Error(`could not start ${bin}`);
  liveGroups.add(pgid);
  hookSignals();
  child.unref();
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));

  const logTail = (lines = 40) => {
    try {
      return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };
  const endGroup = async () => {
    killGroup(pgid, 'SIGTERM');
    for (let i = 0; i < 50 && killGroup(pgid, 0); i++) await sleep(100);
    killGroup(pgid, 'SIGKILL');
    liveGroups.delete(pgid);
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await endGroup();
    removeScratch();
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  while (!(await healthy(url))) {
    if (exited || Date.now() > deadline) {
      const tail = logTail();
      await endGroup(); // the caller removes the scratch folder, or retries in it
      if (/EADDRINUSE/.test(tail)) throw new PortTakenError(`port ${port} taken`);
      throw new Error(`code-server ${exited ?? 'did not answer /healthz in time'}; its log ends:\n${tail}`);
    }
    await sleep(250);
  }
  return {
    url,
    port,
    remoteAuthority: `vscode-remote://127.0.0.1:${port}`,
    extensionsDir: options.extensionsDir,
    userDataDir: options.userDataDir,
    logFile,
    logTail,
    stop,
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}
