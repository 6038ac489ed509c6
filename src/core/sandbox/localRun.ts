// What every local backend shares: the argv around the test command, the run's cgroup, and ending the run's processes.
import { SYSTEM_PATH, toolPath } from '../base/toolPath';
import { spawn } from 'node:child_process';
import treeKill from 'tree-kill';
import { RunCgroup } from './runCgroup';
import type { CgroupSupport } from './runCgroup';
import type { PreparedRun, RunSpec } from './backend';

/** What was found on this system that every local backend may use. */
export interface LocalTools {
  /** util-linux `prlimit`: the per-process data cap where no cgroup can cap the run. */
  readonly prlimit: boolean;
  /** `/bin/bash` closes every inherited descriptor beyond stdio; `sh` can only name descriptors 3 to 9. */
  readonly bash: boolean;
  /** Where a cgroup per run caps memory and processes as a whole. */
  readonly cgroup?: CgroupSupport;
}

/**
 * The innermost argv: descriptors beyond stdio closed (the editor or CI may hand the engine descriptors without
 * close-on-exec, and no sandbox closes them), the per-process data cap (it gives a readable "out of memory"; a
 * cgroup, where there is one, caps the run as a whole), then the shell.
 */
export function innerCommand(tools: LocalTools, spec: RunSpec): string[] {
  if (process.platform === 'win32') return ['cmd.exe', '/d', '/s', '/c', spec.command];
  const shell = ['/bin/sh', '-c', spec.command];
  const limited = spec.memoryMB > 0 && tools.prlimit ? [toolPath('prlimit'), `--data=${spec.memoryMB * 1024 * 1024}`, '--', ...shell] : shell;
  if (tools.bash) {
    const script = 'for fd in /dev/fd/*; do fd=${fd##*/}; case $fd in 0|1|2) ;; *) eval "exec $fd>&-" 2>/dev/null;; esac; done; exec "$@"';
    return ['/bin/bash', '-c', script, 'close-fds', ...limited];
  }
  return ['/bin/sh', '-c', 'for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done 2>/dev/null; exec "$@"', 'close-fds', ...limited];
}

/**
 * Environment for every local run: CI mode, no prompts, and (inside a namespace) caches kept in the private /tmp.
 * `writesBytecode`: Python may write its bytecode (the baseline's run in an overlay of its own, which later runs read).
 */
export function localEnvironment(base: NodeJS.ProcessEnv, cachesInTmp: boolean, writesBytecode = false): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  // Variables of the process we run in that would change how the tests behave: node's test runner treats
  // itself as a child reporting to a parent when NODE_TEST_CONTEXT is set (and then always exits 0), and
  // VS Code's debugger injects itself through NODE_OPTIONS.
  for (const name of ['NODE_TEST_CONTEXT', 'ELECTRON_RUN_AS_NODE', 'VSCODE_INSPECTOR_OPTIONS']) delete env[name];
  if (/js-debug|bootloader/.test(env.NODE_OPTIONS ?? '')) delete env.NODE_OPTIONS;
  Object.assign(env, { CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });
  if (cachesInTmp) {
    // Home is read-only inside the sandbox: tools that cache or log under it get the private /tmp instead.
    Object.assign(env, { npm_config_cache: '/tmp/.npm', npm_config_logs_dir: '/tmp/.npm-logs', XDG_CACHE_HOME: '/tmp/.cache' });
    // Python reads the bytecode compiled beside each module (the standard library's, the packages', the project's
    // own), or in the user's own PYTHONPYCACHEPREFIX, and writes none. A prefix in the private /tmp starts empty, so
    // every module was compiled on every run (pyflakes' suite: 5.9 s against 2.6 s); and a run that wrote bytecode
    // could leave a stale one for the next candidate in a reused copy (a text of the same size, in the same second).
    // The one exception is the baseline's run in an overlay: what it writes, in a layer of its own, is the bytecode
    // later runs read (execution/bytecodeSeed.ts).
    if (/^\/(?:var\/)?tmp(?:\/|$)/.test(env.PYTHONPYCACHEPREFIX ?? '')) delete env.PYTHONPYCACHEPREFIX;
    if (writesBytecode) delete env.PYTHONDONTWRITEBYTECODE;
    else env.PYTHONDONTWRITEBYTECODE = '1';
  }
  return env;
}

/**
 * SIGKILLs the tree, then the process group, then whatever the cgroup still holds. The tree walk goes first, while
 * parents still link their children (setsid children left the group but are still in the tree); the group kill
 * reaches those the walk missed; the cgroup knows every process, double-forked daemons included.
 */
function killTree(pid: number, cgroup: RunCgroup | undefined): Promise<void> {
  return new Promise((resolve) => {
    const killGroup = () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
      void (cgroup ? cgroup.killAll() : Promise.resolve()).then(resolve);
    };
    const fallback = setTimeout(killGroup, 1000);
    treeKill(pid, 'SIGKILL', () => {
      clearTimeout(fallback);
      killGroup();
    });
  });
}

/**
 * Without a PID namespace nothing ends a run's processes when the engine itself is SIGKILLed: a detached watchdog
 * does, for the run's process group (and its cgroup when there is one). Processes that left the group by `setsid`
 * and have no cgroup to be found by still escape it.
 */
function startWatchdog(pid: number, cgroup: RunCgroup | undefined): () => void {
  const script = 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -KILL -"$2" 2>/dev/null; [ -n "$3" ] && kill -KILL $(cat "$3") 2>/dev/null; exit 0';
  try {
    const watchdog = spawn('/bin/sh', ['-c', script, 'verified-fix-watchdog', String(process.pid), String(pid), cgroup?.procsFiles[0] ?? ''], { detached: true, stdio: 'ignore', env: { PATH: SYSTEM_PATH } });
    watchdog.on('error', () => undefined);
    watchdog.unref();
    return () => watchdog.kill('SIGKILL');
  } catch {
    return () => undefined;
  }
}

/**
 * A local run: its cgroup made first (so the sandbox and all it starts are under the run's limits), `argv` built
 * around the cgroup's join, and the process tree killed on stop. `namespaced`: a PID namespace ends every process
 * when its first one exits, so neither the tree walk after exit nor the watchdog is needed.
 */
export async function prepareLocal(tools: LocalTools, spec: RunSpec, options: { argv: string[]; env: NodeJS.ProcessEnv; namespaced: boolean }): Promise<PreparedRun> {
  const cgroup = tools.cgroup ? await RunCgroup.create(tools.cgroup, spec.memoryMB * 1024 * 1024) : undefined;
  let argv = options.argv;
  if (cgroup) {
    const join = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';
    argv = ['/bin/sh', '-c', join, 'cgroup-join', ...cgroup.procsFiles, '--', ...argv];
  }
  let pid: number | undefined;
  let stopWatchdog = () => undefined as void;
  return {
    file: argv[0],
    args: argv.slice(1),
    env: options.env,
    started(spawned) {
      pid = spawned;
      if (!options.namespaced && pid !== undefined && process.platform !== 'win32') stopWatchdog = startWatchdog(pid, cgroup);
    },
    stop: () => (pid === undefined ? Promise.resolve() : killTree(pid, cgroup)),
    async release() {
      // Whatever the main process left behind (daemons, orphans in its group) ends with the run.
      if (!options.namespaced && pid !== undefined) await killTree(pid, cgroup);
      stopWatchdog();
      await cgroup?.remove();
    },
    overMemory: async () => (await cgroup?.oomKilled()) ?? false,
  };
}
