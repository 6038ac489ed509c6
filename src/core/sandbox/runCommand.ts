// Runs one test command in one copy: contained, time-limited, output capped, and always settled with a verdict.
import { execa } from 'execa';
import type { RunStatus, Verdict, VerdictCause } from '../contract/fixRequest';
import { armDeadline, waitingNote } from './cpuWait';
import { OutputTail } from './outputTail';
import { SANDBOX_SETUP_EXIT, SANDBOX_SETUP_MARKER } from './backend';
import type { OverlayMount, PreparedRun, SandboxBackend, TempBind } from './backend';

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
  /** Entries of the workspace the run must not see (`.git`, untracked `.env*`). */
  readonly hiddenInTree?: readonly string[];
  readonly timeoutMs: number;
  /**
   * Up to this much wall time, time the run spent waiting for a CPU does not count against `timeoutMs` (a limit
   * derived from an idle baseline, not the user's own); unset, `timeoutMs` is wall time.
   */
  readonly waitingExtendsUpToMs?: number;
  readonly signal?: AbortSignal;
  readonly backend: SandboxBackend;
  readonly allowNetwork: boolean;
  readonly memoryMB: number;
  /** The run's environment before the runner's own settings; secrets should already be gone (see security/secrets). */
  readonly env?: NodeJS.ProcessEnv;
  /** A copy-on-write view mounted at `cwd` instead of a copy there (backends with `mountsOverlay`). */
  readonly overlay?: OverlayMount;
  /** Host folders bound into the run's private /tmp (backends with `privateTempUid`). */
  readonly tempBinds?: readonly TempBind[];
  /** Python may write bytecode, into the run's own overlay layer (RunSpec.writesBytecode). */
  readonly writesBytecode?: boolean;
  /** Folders inside `readOnlyInCopy` the run may still write (RunSpec.writableInCopy). */
  readonly writableInCopy?: readonly string[];
  /** Called once the process has started. */
  readonly onStarted?: () => void;
}

const memoryExhausted = /JavaScript heap out of memory|Allocation failed|MemoryError|Cannot allocate memory|std::bad_alloc|out of memory/i;

/** Runs the command and resolves with its verdict; never rejects. */
export async function runTestCommand(options: TestRunOptions): Promise<Verdict> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let prepared: PreparedRun;
  try {
    prepared = await options.backend.prepare({
      command: options.command,
      copyDir: options.cwd,
      readOnlyPaths: options.readOnlyPaths ?? [],
      readOnlyInCopy: options.readOnlyInCopy ?? [],
      hiddenFolders: options.hiddenFolders ?? [],
      writablePaths: options.writablePaths ?? [],
      hiddenInTree: options.hiddenInTree ?? [],
      allowNetwork: options.allowNetwork,
      memoryMB: options.memoryMB,
      env: options.env ?? process.env,
      hostEnv: process.env,
      ...(options.overlay ? { overlay: options.overlay } : {}),
      ...(options.tempBinds ? { tempBinds: options.tempBinds } : {}),
      ...(options.writesBytecode ? { writesBytecode: true } : {}),
      ...(options.writableInCopy?.length ? { writableInCopy: options.writableInCopy } : {}),
    });
  } catch (error) {
    return { status: 'error', exitCode: null, durationMs: elapsed(), reason: `could not prepare the sandbox: ${(error as Error).message}`, cause: 'sandboxSetup', output: '', stdout: '', stderr: '' };
  }
  try {
    return await runPrepared(options, prepared, elapsed);
  } finally {
    await prepared.release();
  }
}

async function runPrepared(options: TestRunOptions, prepared: PreparedRun, elapsed: () => number): Promise<Verdict> {
  const { file, args, env } = prepared;
  const stdout = new OutputTail(OUTPUT_TAIL_BYTES);
  const stderr = new OutputTail(OUTPUT_TAIL_BYTES);
  const both = new OutputTail(OUTPUT_TAIL_BYTES);
  const verdict: MakeVerdict = (status, exitCode, reason, cause) => ({
    status,
    exitCode,
    durationMs: elapsed(),
    ...(reason ? { reason } : {}),
    ...(cause ? { cause } : {}),
    output: both.toString(),
    ...(both.droppedBytes > 0 ? { droppedBytes: both.droppedBytes } : {}),
    stdout: stdout.toString(),
    stderr: stderr.toString(),
  });

  if (options.signal?.aborted) return { ...verdict('error', null, 'cancelled', 'cancelled'), cancelled: true };
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
    return verdict('error', null, `could not start: ${(error as Error).message}`, 'startFailed');
  }
  if (subprocess.pid !== undefined) options.onStarted?.();
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

  prepared.started(subprocess.pid);
  let ended: 'timeout' | 'cancelled' | undefined;
  const stop = (why: 'timeout' | 'cancelled') => {
    if (ended) return;
    ended = why;
    void prepared.stop();
  };
  const disarm = armDeadline(options.timeoutMs, options.waitingExtendsUpToMs, subprocess.pid, () => stop('timeout'));
  const onAbort = () => stop('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const exit = await new Promise<{ code: number | null; spawnError?: Error }>((resolve) => {
    subprocess.once('error', (error) => resolve({ code: null, spawnError: error }));
    subprocess.once('exit', (code) => resolve({ code }));
    // A spawn the system refused (E2BIG: an argument over 128 KiB; ENOENT) starts no process, so no deadline can end
    // it, and the child emits neither event: execa's result says so.
    if (subprocess.pid === undefined) {
      void subprocess.then((result) => resolve({ code: null, spawnError: new Error(result.originalMessage ?? result.shortMessage ?? 'it did not start') }), (error: Error) => resolve({ code: null, spawnError: error }));
    }
  });
  disarm();
  options.signal?.removeEventListener('abort', onAbort);
  // The grace timer is cleared once the pipes close: left pending, it held the engine's process open for its whole
  // length after the last run, a quarter of a second at the end of every CLI request.
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([subprocess.stdout, subprocess.stderr].map((s) => (s && !s.closed ? new Promise((r) => s.once('close', r)) : undefined))),
    new Promise((r) => (grace = setTimeout(r, PIPE_GRACE_MS))),
  ]);
  clearTimeout(grace);
  subprocess.stdout?.destroy();
  subprocess.stderr?.destroy();

  return judgeExit(options, prepared, exit, ended, verdict, both.toString(), stderr.toString());
}

type MakeVerdict = (status: RunStatus, exitCode: number | null, reason?: string, cause?: VerdictCause) => Verdict;

/** The verdict of a run that ended: how it ended (spawn error, timeout, cancel, sandbox setup, memory), else its exit code. */
async function judgeExit(
  options: TestRunOptions, prepared: PreparedRun, exit: { code: number | null; spawnError?: Error }, ended: 'timeout' | 'cancelled' | undefined,
  verdict: MakeVerdict, output: string, stderr: string,
): Promise<Verdict> {
  if (exit.spawnError) return verdict('error', null, `could not start ${prepared.file}: ${exit.spawnError.message}`, 'startFailed');
  if (ended === 'timeout') {
    const timedOut = verdict('timeout', exit.code, undefined, 'timeout');
    return { ...timedOut, reason: `timed out after ${(options.timeoutMs / 1000).toFixed(1)} s${waitingNote(options.timeoutMs, timedOut.durationMs)}` };
  }
  if (ended === 'cancelled') return { ...verdict('error', exit.code, 'cancelled', 'cancelled'), cancelled: true };
  if (exit.code === SANDBOX_SETUP_EXIT) {
    const line = stderr.split('\n').find((text) => text.startsWith(SANDBOX_SETUP_MARKER));
    if (line !== undefined) return verdict('error', exit.code, line.slice(SANDBOX_SETUP_MARKER.length) || 'sandbox setup failed', 'sandboxSetup');
  }
  const overCap = options.memoryMB > 0 && ((await prepared.overMemory()) || (exit.code !== 0 && memoryExhausted.test(output)));
  if (overCap) return verdict('error', exit.code, `memory limit (${options.memoryMB} MiB)`, 'memory');
  if (exit.code === 0) return verdict('pass', 0);
  if (exit.code === 127 && /not found/i.test(output)) {
    return verdict('error', 127, `command not found: ${output.trim().split('\n').pop()?.slice(0, 200)}`, 'commandNotFound');
  }
  return verdict('fail', exit.code);
}
