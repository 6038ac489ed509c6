// Runs one test command in one copy: contained, time-limited, output capped, and always settled with a verdict.
import { spawn } from 'node:child_process';
import { execa } from 'execa';
import treeKill from 'tree-kill';
import type { RunStatus, Verdict } from './fixRequest';
import { OutputTail } from './outputTail';
import { RunCgroup } from './runCgroup';
import { runEnvironment, sandboxedCommand } from './sandbox';
import type { SandboxCapabilities } from './sandbox';

/** Bytes kept of each stream (and of the two interleaved). */
export const OUTPUT_TAIL_BYTES = 64 * 1024;
/** After the main process exits, how long grandchildren may keep the pipes open before they are cut. */
const PIPE_GRACE_MS = 250;

export interface TestRunOptions {
  readonly command: string;
  readonly cwd: string;
  /** Read-only folders the run must see (the original workspace, for dependency links). */
  readonly readOnlyPaths?: readonly string[];
  /** Paths inside the copy the run may read but not change (tests, their configuration, fixtures). */
  readonly readOnlyInCopy?: readonly string[];
  /** Folders the run must not see (the temp root holding other runs' copies). */
  readonly hiddenFolders?: readonly string[];
  /** Folders outside the copy the run may write (its test reporter's). */
  readonly writablePaths?: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly capabilities: SandboxCapabilities;
  readonly allowNetwork: boolean;
  readonly memoryMB: number;
  /** The run's environment before the runner's own settings; secrets should already be gone (see security/secrets). */
  readonly env?: NodeJS.ProcessEnv;
}

const memoryExhausted = /JavaScript heap out of memory|Allocation failed|MemoryError|Cannot allocate memory|std::bad_alloc|out of memory/i;

/**
 * SIGKILLs the tree, then the process group. The tree walk goes first, while the parents still link the
 * children (setsid children left the group but are still in the tree); the group kill then reaches those the
 * walk missed. Inside a PID namespace killing the wrapper alone is enough; this is harmless there.
 */
function killTree(pid: number, cgroup: RunCgroup | undefined): Promise<void> {
  return new Promise((resolve) => {
    const killGroup = () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
      // The cgroup knows every process of the run, double-forked setsid daemons included.
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
    const watchdog = spawn('/bin/sh', ['-c', script, 'verified-fix-watchdog', String(process.pid), String(pid), cgroup?.procsFiles[0] ?? ''], { detached: true, stdio: 'ignore' });
    watchdog.on('error', () => undefined);
    watchdog.unref();
    return () => watchdog.kill('SIGKILL');
  } catch {
    return () => undefined;
  }
}

/** Runs the command and resolves with its verdict; never rejects. */
export async function runTestCommand(options: TestRunOptions): Promise<Verdict> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const cgroup = options.capabilities.cgroup ? await RunCgroup.create(options.capabilities.cgroup, options.memoryMB * 1024 * 1024) : undefined;
  try {
    return await runContained(options, cgroup, elapsed);
  } finally {
    await cgroup?.remove();
  }
}

async function runContained(options: TestRunOptions, cgroup: RunCgroup | undefined, elapsed: () => number): Promise<Verdict> {
  const env = runEnvironment(options.env ?? process.env, options.capabilities);
  const { file, args } = sandboxedCommand(options.capabilities, options.command, {
    copyDir: options.cwd,
    readOnlyPaths: options.readOnlyPaths ?? [],
    readOnlyInCopy: options.readOnlyInCopy ?? [],
    hiddenFolders: options.hiddenFolders ?? [],
    writablePaths: options.writablePaths ?? [],
    allowNetwork: options.allowNetwork,
    memoryMB: options.memoryMB,
    hostEnv: process.env,
    ...(cgroup ? { cgroupProcs: cgroup.procsFiles } : {}),
  });
  const stdout = new OutputTail(OUTPUT_TAIL_BYTES);
  const stderr = new OutputTail(OUTPUT_TAIL_BYTES);
  const both = new OutputTail(OUTPUT_TAIL_BYTES);
  const verdict = (status: RunStatus, exitCode: number | null, reason?: string): Verdict => ({
    status,
    exitCode,
    durationMs: elapsed(),
    ...(reason ? { reason } : {}),
    output: both.toString(),
    stdout: stdout.toString(),
    stderr: stderr.toString(),
  });

  if (options.signal?.aborted) return verdict('error', null, 'cancelled');
  let subprocess: ReturnType<typeof execa>;
  try {
    subprocess = execa(file, args, {
      cwd: options.cwd,
      env,
      extendEnv: false,
      stdin: 'ignore',
      buffer: false,
      reject: false,
      detached: process.platform !== 'win32',
      cleanup: true,
      windowsHide: true,
    });
  } catch (error) {
    return verdict('error', null, `could not start: ${(error as Error).message}`);
  }
  // The promise may only settle once grandchildren close the pipes; we settle on our own terms below.
  subprocess.catch(() => undefined);
  subprocess.stdout?.on('data', (chunk: Buffer) => {
    stdout.append(chunk);
    both.append(chunk);
  });
  subprocess.stderr?.on('data', (chunk: Buffer) => {
    stderr.append(chunk);
    both.append(chunk);
  });

  const processGroupOnly = options.capabilities.kind === 'process-group' && process.platform !== 'win32';
  const stopWatchdog = processGroupOnly && subprocess.pid !== undefined ? startWatchdog(subprocess.pid, cgroup) : () => undefined;
  let ended: 'timeout' | 'cancelled' | undefined;
  const stop = (why: 'timeout' | 'cancelled') => {
    if (ended) return;
    ended = why;
    if (subprocess.pid !== undefined) void killTree(subprocess.pid, cgroup);
  };
  const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
  const onAbort = () => stop('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const exit = await new Promise<{ code: number | null; spawnError?: Error }>((resolve) => {
    subprocess.once('error', (error) => resolve({ code: null, spawnError: error }));
    subprocess.once('exit', (code) => resolve({ code }));
  });
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  // Whatever the main process left behind (daemons, orphans in its group) ends with the run. In a PID
  // namespace that already happened when its first process exited, so only the fallback needs the tree walk.
  if (subprocess.pid !== undefined && options.capabilities.kind === 'process-group') await killTree(subprocess.pid, cgroup);
  stopWatchdog();
  await Promise.race([
    Promise.all([subprocess.stdout, subprocess.stderr].map((s) => (s && !s.closed ? new Promise((r) => s.once('close', r)) : undefined))),
    new Promise((r) => setTimeout(r, PIPE_GRACE_MS)),
  ]);
  subprocess.stdout?.destroy();
  subprocess.stderr?.destroy();

  if (exit.spawnError) return verdict('error', null, `could not start ${file}: ${exit.spawnError.message}`);
  if (ended === 'timeout') return verdict('timeout', exit.code, `timed out after ${(options.timeoutMs / 1000).toFixed(1)} s`);
  if (ended === 'cancelled') return verdict('error', exit.code, 'cancelled');
  if (exit.code === 125 && /^verified-fix sandbox: /m.test(stderr.toString())) {
    return verdict('error', exit.code, stderr.toString().match(/^verified-fix sandbox: (.*)$/m)?.[1] ?? 'sandbox setup failed');
  }
  const output = both.toString();
  const overCap = options.memoryMB > 0 && ((await cgroup?.oomKilled()) || (exit.code !== 0 && memoryExhausted.test(output)));
  if (overCap) return verdict('error', exit.code, `memory limit (${options.memoryMB} MiB)`);
  if (exit.code === 0) return verdict('pass', 0);
  if (exit.code === 127 && /not found/i.test(output)) {
    return verdict('error', 127, `command not found: ${output.trim().split('\n').pop()?.slice(0, 200)}`);
  }
  return verdict('fail', exit.code);
}
