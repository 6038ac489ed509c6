// Chooses how test runs are contained on this system (bubblewrap, unshare, or process groups) and builds the argv.
import { execFile } from 'node:child_process';
import type { Logger } from './logger';

/**
 * - `bwrap`: bubblewrap; a PID namespace (every process dies with the run), no network, the real file system
 *   read-only except the copy and a private /tmp.
 * - `unshare`: a PID namespace (and no network) through util-linux `unshare`; the file system is not protected.
 * - `process-group`: no namespace; runs are killed by process group and tree-kill.
 */
export type ContainmentKind = 'bwrap' | 'unshare' | 'process-group';

export interface SandboxCapabilities {
  readonly kind: ContainmentKind;
  /** `prlimit` is util-linux's; where it is missing the memory cap cannot be enforced. */
  readonly prlimit: boolean;
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
  readonly allowNetwork: boolean;
  /** Per-process data-segment cap in MiB; 0 = none. */
  readonly memoryMB: number;
}

function succeeds(file: string, args: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 5000 }, (error) => resolve(!error));
  });
}

let detected: Promise<SandboxCapabilities> | undefined;

/** Probes once per process what works here (a real trial run of each mechanism, not just `which`). */
export function detectSandbox(logger?: Logger): Promise<SandboxCapabilities> {
  detected ??= (async () => {
    let kind: ContainmentKind = 'process-group';
    if (process.platform === 'linux') {
      if (await succeeds('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', '--', 'true'])) {
        kind = 'bwrap';
      } else if (await succeeds('unshare', unshareArgs(false, ['true']))) {
        kind = 'unshare';
      }
    }
    const prlimit = process.platform === 'linux' && (await succeeds('prlimit', ['--data=1073741824', '--', 'true']));
    const capabilities = { kind, prlimit };
    logger?.info(`sandbox: ${kind}${prlimit ? ', memory cap by prlimit --data' : ', no memory cap available'}`);
    return capabilities;
  })();
  return detected;
}

function unshareArgs(allowNetwork: boolean, command: readonly string[]): string[] {
  // As root no user namespace is needed; otherwise -r maps the user to root inside one.
  const user = process.getuid?.() === 0 ? [] : ['-r'];
  return [...user, '--pid', '--fork', '--kill-child', '--mount-proc', ...(allowNetwork ? [] : ['--net']), '--', ...command];
}

/** One plain sentence naming what protects the user on this system, for the log and the UI. */
export function describeProtections(capabilities: SandboxCapabilities, options: { allowNetwork: boolean; memoryMB: number }): string {
  const parts: string[] = [];
  switch (capabilities.kind) {
    case 'bwrap':
      parts.push('bubblewrap sandbox', 'files outside the copy read-only', 'every process ends with its run');
      parts.push(options.allowNetwork ? 'network: allowed by setting' : 'network: isolated');
      break;
    case 'unshare':
      parts.push('PID namespace (every process ends with its run)', 'files outside the copy: not protected (install bubblewrap)');
      parts.push(options.allowNetwork ? 'network: allowed by setting' : 'network: isolated');
      break;
    case 'process-group':
      parts.push('process-group kill only', 'files outside the copy: not protected', 'network: not isolated on this system');
      break;
  }
  parts.push(options.memoryMB > 0 ? (capabilities.prlimit ? `memory: ${options.memoryMB} MiB per process` : 'memory: not capped on this system') : 'memory: no cap');
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
  if (capabilities.kind === 'bwrap') {
    // Home is read-only inside the sandbox: tools that cache or log under it get the private /tmp instead.
    env.npm_config_cache = '/tmp/.npm';
    env.npm_config_logs_dir = '/tmp/.npm-logs';
    env.XDG_CACHE_HOME = '/tmp/.cache';
    env.PYTHONPYCACHEPREFIX = '/tmp/.pycache';
  }
  return env;
}

/** The argv that runs `shellCommand` in `options.copyDir` under the chosen containment. */
export function sandboxedCommand(capabilities: SandboxCapabilities, shellCommand: string, options: SandboxRunOptions): { file: string; args: string[] } {
  const shell = process.platform === 'win32' ? ['cmd.exe', '/d', '/s', '/c', shellCommand] : ['/bin/sh', '-c', shellCommand];
  const limited = options.memoryMB > 0 && capabilities.prlimit ? ['prlimit', `--data=${options.memoryMB * 1024 * 1024}`, '--', ...shell] : shell;
  switch (capabilities.kind) {
    case 'bwrap': {
      const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
      for (const path of options.readOnlyPaths) args.push('--ro-bind-try', path, path);
      args.push('--bind', options.copyDir, options.copyDir);
      if (!options.allowNetwork) args.push('--unshare-net');
      args.push('--unshare-pid', '--die-with-parent', '--new-session', '--chdir', options.copyDir, '--', ...limited);
      return { file: 'bwrap', args };
    }
    case 'unshare': {
      // A new network namespace starts with loopback down; tests that start local servers need it up.
      const command = options.allowNetwork ? limited : ['/bin/sh', '-c', 'ip link set lo up 2>/dev/null; exec "$@"', 'sh', ...limited];
      return { file: 'unshare', args: unshareArgs(options.allowNetwork, command) };
    }
    case 'process-group':
      return { file: limited[0], args: limited.slice(1) };
  }
}
