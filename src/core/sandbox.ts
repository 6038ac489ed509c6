// Chooses how test runs are contained on this system (bubblewrap, unshare, or process groups) and builds the argv.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import type { Logger } from './logger';
import { detectCgroup } from './runCgroup';
import type { CgroupSupport } from './runCgroup';
import { hiddenPaths } from './security/hiddenPaths';

/**
 * - `bwrap`: bubblewrap; every capability dropped (and, where user namespaces work, an unprivileged user), a PID
 *   namespace (every process dies with the run), no network, the real file system read-only except the copy and a
 *   private /tmp, credentials and daemon sockets hidden, sibling copies out of sight.
 * - `unshare`: util-linux `unshare`: PID and mount namespaces (no network); the workspace, home and the copy's
 *   tests read-only, credentials hidden, capabilities dropped by `setpriv`. The rest of the file system is not
 *   protected from a user who owns it.
 * - `process-group`: no namespace; runs are killed by process group, tree-kill and, where there is one, their cgroup.
 */
export type ContainmentKind = 'bwrap' | 'unshare' | 'process-group';

/** The order detection tries the kinds in (also the choices of an explicit sandbox setting besides `auto`). */
export const CONTAINMENT_KINDS: readonly ContainmentKind[] = ['bwrap', 'unshare', 'process-group'];

export interface SandboxCapabilities {
  readonly kind: ContainmentKind;
  /** `prlimit` is util-linux's; where it is missing the per-process data cap cannot be set. */
  readonly prlimit: boolean;
  /** bwrap ran the test as an unprivileged user in a user namespace (else as the caller with no capabilities). */
  readonly userNamespace: boolean;
  /** unshare: `setpriv` dropped every capability before the test started. */
  readonly setpriv: boolean;
  /** Where a cgroup per run caps memory and processes as a whole; undefined when the system gives none. */
  readonly cgroup?: CgroupSupport;
  /** `/bin/bash` closes every inherited descriptor beyond stdio; `sh` can only name descriptors 3 to 9. */
  readonly bash: boolean;
}

/** What a single run asks of the sandbox. */
export interface SandboxRunOptions {
  /** The writable copy the command runs in. */
  readonly copyDir: string;
  /**
   * Folders the run must still see, read-only, even if they live under /tmp (which the sandbox replaces with a
   * private one): the original workspace, which the copy's dependency links point into.
   */
  readonly readOnlyPaths: readonly string[];
  /** Paths inside the copy mounted read-only: the tests, their configuration and fixtures. */
  readonly readOnlyInCopy: readonly string[];
  /** Folders replaced by an empty one: the temp root that holds the other candidates' copies. */
  readonly hiddenFolders: readonly string[];
  /** Folders outside the copy the run may write (its test reporter's folder), even inside a hidden one. */
  readonly writablePaths?: readonly string[];
  readonly allowNetwork: boolean;
  /** Per-process data-segment cap in MiB; 0 = none. */
  readonly memoryMB: number;
  /**
   * The environment the engine itself runs in (not the run's, which lacks the secrets): its HOME and socket variables
   * say which credentials and sockets to hide.
   */
  readonly hostEnv: NodeJS.ProcessEnv;
  /** `cgroup.procs` files the run's first process joins before anything else starts. */
  readonly cgroupProcs?: readonly string[];
}

/** The identity a run has inside bwrap when the caller is root: `nobody`, owning only what the user namespace maps. */
const UNPRIVILEGED_ID = '65534';

function succeeds(file: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000 }, (error) => resolve(!error));
  });
}

const isRoot = () => process.getuid?.() === 0;

let probed: Promise<SandboxCapabilities[]> | undefined;

/**
 * Probes once per process what works here: a real trial run of each kind with the flags every run will use.
 * Returns the working ones, strongest first; `process-group` always works.
 */
function workingSandboxes(): Promise<SandboxCapabilities[]> {
  probed ??= (async () => {
    const bash = existsSync('/bin/bash');
    const [prlimit, cgroup] = process.platform === 'linux' ? await Promise.all([succeeds('prlimit', ['--data=1073741824', '--', 'true']), detectCgroup()]) : [false, undefined];
    const base = { prlimit, bash, userNamespace: false, setpriv: false, ...(cgroup ? { cgroup } : {}) };
    const candidates: SandboxCapabilities[] =
      process.platform === 'linux'
        ? [
            { ...base, kind: 'bwrap', userNamespace: true },
            { ...base, kind: 'bwrap' },
            { ...base, kind: 'unshare', setpriv: true },
            // Without setpriv, root in the namespace keeps its capabilities: only for a user who has none to drop.
            ...(isRoot() ? [] : [{ ...base, kind: 'unshare' } as const]),
          ]
        : [];
    const probe = { copyDir: tmpdir(), readOnlyPaths: [], readOnlyInCopy: [], hiddenFolders: [], allowNetwork: false, memoryMB: 0, hostEnv: {} };
    const works = await Promise.all(candidates.map((candidate) => {
      const { file, args } = sandboxedCommand(candidate, 'true', probe);
      return succeeds(file, args);
    }));
    return [...candidates.filter((_, i) => works[i]), { ...base, kind: 'process-group' }];
  })();
  return probed;
}

/** The strongest containment that works here. */
export async function detectSandbox(logger?: Logger): Promise<SandboxCapabilities> {
  const capabilities = (await workingSandboxes())[0];
  const memory = capabilities.cgroup ? `a cgroup v${capabilities.cgroup.version} per run` : capabilities.prlimit ? 'prlimit --data per process' : 'none';
  logger?.info(`sandbox: ${capabilities.kind}${capabilities.userNamespace ? ' (user namespace)' : ''}${capabilities.setpriv ? ' (setpriv)' : ''}; memory cap: ${memory}`);
  return capabilities;
}

/** The strongest working variant of one kind, or undefined when that kind does not work here. */
export async function sandboxOfKind(kind: ContainmentKind): Promise<SandboxCapabilities | undefined> {
  return (await workingSandboxes()).find((c) => c.kind === kind);
}

/** Whether runs on this kind cannot see or reach each other's copies. */
export function isolatesRuns(capabilities: SandboxCapabilities): boolean {
  return capabilities.kind === 'bwrap';
}

/** One plain sentence naming what protects the user on this system, for the log and the UI. */
export function describeProtections(capabilities: SandboxCapabilities, options: { allowNetwork: boolean; memoryMB: number }): string {
  const parts: string[] = [];
  const network = options.allowNetwork ? 'network: allowed by setting' : 'network: isolated (sockets of daemons and agents hidden)';
  switch (capabilities.kind) {
    case 'bwrap':
      parts.push(
        `bubblewrap sandbox${capabilities.userNamespace ? ' as an unprivileged user' : ''}, no capabilities`,
        'files outside the copy read-only, credentials hidden',
        'every process ends with its run',
        network,
      );
      break;
    case 'unshare':
      parts.push(
        `PID and mount namespaces${capabilities.setpriv ? ', no capabilities' : ''} (every process ends with its run)`,
        'the workspace, home and tests read-only, credentials hidden; other files outside the copy are NOT protected on this system: install bubblewrap',
        network,
      );
      break;
    case 'process-group':
      parts.push('process-group kill only', 'files outside the copy are NOT protected on this system: install bubblewrap', 'network: not isolated on this system');
      break;
  }
  if (options.memoryMB <= 0) parts.push('memory: no cap');
  else if (capabilities.cgroup) parts.push(`memory: ${options.memoryMB} MiB per run (cgroup, /tmp included), processes capped`);
  else parts.push(capabilities.prlimit ? `memory: ${options.memoryMB} MiB per process` : 'memory: not capped on this system');
  return parts.join('; ');
}

/** Environment for every run: CI mode, no prompts, caches kept inside the sandbox's writable places. */
export function runEnvironment(base: NodeJS.ProcessEnv, capabilities: SandboxCapabilities): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  // Variables of the process we run in that would change how the tests behave: node's test runner treats
  // itself as a child reporting to a parent when NODE_TEST_CONTEXT is set (and then always exits 0), and
  // VS Code's debugger injects itself through NODE_OPTIONS.
  for (const name of ['NODE_TEST_CONTEXT', 'ELECTRON_RUN_AS_NODE', 'VSCODE_INSPECTOR_OPTIONS']) delete env[name];
  if (/js-debug|bootloader/.test(env.NODE_OPTIONS ?? '')) delete env.NODE_OPTIONS;
  Object.assign(env, { CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
  if (capabilities.kind !== 'process-group') {
    // Home is read-only inside the sandbox: tools that cache or log under it get the private /tmp instead.
    env.npm_config_cache = '/tmp/.npm';
    env.npm_config_logs_dir = '/tmp/.npm-logs';
    env.XDG_CACHE_HOME = '/tmp/.cache';
    env.PYTHONPYCACHEPREFIX = '/tmp/.pycache';
  }
  return env;
}

/** Single-quotes a word for `sh`. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Closes every descriptor but stdio before the test starts: the editor or CI may hand the engine descriptors
 * without close-on-exec (an open file of the original, a socket), and the sandbox does not close them.
 */
function closingDescriptors(capabilities: SandboxCapabilities, command: readonly string[]): string[] {
  if (process.platform === 'win32') return [...command];
  if (capabilities.bash) {
    const script = 'for fd in /dev/fd/*; do fd=${fd##*/}; case $fd in 0|1|2) ;; *) eval "exec $fd>&-" 2>/dev/null;; esac; done; exec "$@"';
    return ['/bin/bash', '-c', script, 'close-fds', ...command];
  }
  return ['/bin/sh', '-c', 'for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done 2>/dev/null; exec "$@"', 'close-fds', ...command];
}

function bwrapArgs(capabilities: SandboxCapabilities, options: SandboxRunOptions, command: readonly string[]): string[] {
  const args: string[] = [];
  if (capabilities.userNamespace) args.push('--unshare-user', ...(isRoot() ? ['--uid', UNPRIVILEGED_ID, '--gid', UNPRIVILEGED_ID] : []), '--disable-userns');
  args.push('--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  if (options.memoryMB > 0) args.push('--size', String(options.memoryMB * 1024 * 1024));
  args.push('--tmpfs', '/tmp');
  for (const path of options.readOnlyPaths) args.push('--ro-bind-try', path, path);
  const hidden = hiddenPaths(options.hostEnv, options.allowNetwork);
  for (const folder of [...hidden.folders, ...options.hiddenFolders]) args.push('--tmpfs', folder);
  for (const file of hidden.files) args.push('--ro-bind', '/dev/null', file);
  args.push('--bind', options.copyDir, options.copyDir);
  for (const path of options.writablePaths ?? []) args.push('--bind', path, path);
  for (const path of options.readOnlyInCopy) args.push('--ro-bind', path, path);
  if (!options.allowNetwork) args.push('--unshare-net');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent', '--new-session', '--chdir', options.copyDir, '--', ...command);
  return args;
}

/**
 * The shell that sets up the mount namespace for `unshare`: read-only binds of what must not change, empty
 * mounts over credentials and sockets, then every capability dropped so nothing of it can be undone.
 */
function unshareSetup(capabilities: SandboxCapabilities, options: SandboxRunOptions): string {
  const lines = ['fail() { echo "verified-fix sandbox: $*" >&2; exit 125; }'];
  if (!options.allowNetwork) lines.push('ip link set lo up 2>/dev/null');
  const home = options.hostEnv.HOME || homedir();
  const readOnly = [...options.readOnlyPaths, ...(home && home !== '/' ? [home] : [])].filter((p) => existsSync(p));
  for (const path of [...readOnly, ...options.readOnlyInCopy]) {
    lines.push(`mount --bind ${quote(path)} ${quote(path)} && mount -o remount,bind,ro ${quote(path)} || fail 'cannot make ${path.replace(/'/g, '')} read-only'`);
  }
  const hidden = hiddenPaths(options.hostEnv, options.allowNetwork);
  for (const folder of hidden.folders) lines.push(`mount -t tmpfs -o size=1m,mode=0755 verified-fix ${quote(folder)} || fail 'cannot hide ${folder.replace(/'/g, '')}'`);
  for (const file of hidden.files) lines.push(`mount --bind /dev/null ${quote(file)} || fail 'cannot hide ${file.replace(/'/g, '')}'`);
  lines.push(capabilities.setpriv ? 'exec setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs -- "$@"' : 'exec "$@"');
  return lines.join('\n');
}

/** The argv that runs `shellCommand` in `options.copyDir` under the chosen containment. */
export function sandboxedCommand(capabilities: SandboxCapabilities, shellCommand: string, options: SandboxRunOptions): { file: string; args: string[] } {
  const shell = process.platform === 'win32' ? ['cmd.exe', '/d', '/s', '/c', shellCommand] : ['/bin/sh', '-c', shellCommand];
  const limited = options.memoryMB > 0 && capabilities.prlimit ? ['prlimit', `--data=${options.memoryMB * 1024 * 1024}`, '--', ...shell] : shell;
  const inner = closingDescriptors(capabilities, limited);
  let argv: string[];
  switch (capabilities.kind) {
    case 'bwrap':
      argv = ['bwrap', ...bwrapArgs(capabilities, options, inner)];
      break;
    case 'unshare': {
      // As root no user namespace is needed; otherwise -r maps the user to root inside one.
      const user = isRoot() ? [] : ['-r'];
      const namespaces = [...user, '--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--mount-proc', ...(options.allowNetwork ? [] : ['--net'])];
      // unshare outlives a killed editor or CLI unless told to die with it; its --kill-child then ends the namespace.
      const dieWithParent = capabilities.setpriv ? ['setpriv', '--pdeathsig', 'KILL', '--'] : [];
      argv = [...dieWithParent, 'unshare', ...namespaces, '--', '/bin/sh', '-c', unshareSetup(capabilities, options), 'sandbox-setup', ...inner];
      break;
    }
    case 'process-group':
      argv = inner;
      break;
  }
  // Joining the cgroup first puts the sandbox itself and everything it starts under the run's limits.
  if (options.cgroupProcs?.length) {
    const join = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';
    argv = ['/bin/sh', '-c', join, 'cgroup-join', ...options.cgroupProcs, '--', ...argv];
  }
  return { file: argv[0], args: argv.slice(1) };
}
