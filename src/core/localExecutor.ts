// Runs one candidate's file text in a fresh copy on this machine: copy, write, sandboxed run, tamper checks, removal.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FixRequest, Verdict } from './fixRequest';
import type { Logger } from './logger';
import { RunGate } from './runGate';
import { isolatesRuns } from './sandbox';
import type { SandboxCapabilities } from './sandbox';
import type { Redactor } from './security/secrets';
import { removeOrSetAside, tempRootPath } from './tempRoot';
import { changedTestFiles, hashTestFiles, newRunnerFiles, readOnlyTestPaths } from './testFileGuard';
import type { FileHashes } from './testFileGuard';
import { runTestCommand } from './testRunner';
import { createCopy, writeIntoCopy } from './workspaceCopy';
import type { WorkspaceListing } from './workspaceCopy';

export function errorVerdict(reason: string, durationMs = 0): Verdict {
  return { status: 'error', exitCode: null, durationMs, reason, output: '', stdout: '', stderr: '' };
}

/** What the executor needs of a request, fixed for all its runs. */
export interface LocalExecutorOptions {
  readonly request: FixRequest;
  readonly relativePath: string;
  readonly testCommand: string;
  readonly capabilities: SandboxCapabilities;
  readonly listing: WorkspaceListing;
  /** The folder of this request's copies (under the temp root). */
  readonly requestDir: string;
  /** The run's environment, secrets already removed. */
  readonly env: NodeJS.ProcessEnv;
  readonly redactor: Redactor;
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

export interface RunOptions {
  /**
   * Run with no other run of the request active. Where the sandbox cannot keep runs apart, a candidate could rewrite
   * its siblings' copies; a pass only counts once it repeats with nobody else running.
   */
  readonly alone?: boolean;
}

/** Runs candidates of one request in copies of the workspace; `prepare` once, then `run` any number of times. */
export class LocalExecutor {
  private testHashes: FileHashes = new Map();
  private linkedEntries = new Map<string, ReadonlySet<string>>();
  private readonly listed: ReadonlySet<string>;
  private readonly readOnlyInCopy: readonly string[];
  private readonly removals: Array<Promise<void>> = [];
  private readonly gate = new RunGate();

  constructor(private readonly options: LocalExecutorOptions) {
    this.listed = new Set(options.listing.files);
    this.readOnlyInCopy = readOnlyTestPaths(options.listing.files, options.relativePath);
  }

  /** Whether a pass needs a run `alone` before it counts (see RunOptions). */
  get runsCanInterfere(): boolean {
    return !isolatesRuns(this.options.capabilities);
  }

  async prepare(): Promise<void> {
    const { request, listing, relativePath } = this.options;
    this.testHashes = await hashTestFiles(request.workspace, listing.files, relativePath);
    for (const folder of listing.linkedFolders) {
      this.linkedEntries.set(folder, new Set(await readdir(join(request.workspace, folder)).catch(() => [] as string[])));
    }
  }

  /** One test run of `fileText` in a fresh copy; never throws. */
  async run(fileText: string, label: string, runOptions: RunOptions = {}): Promise<Verdict> {
    const { signal } = this.options;
    if (signal.aborted) return errorVerdict('cancelled');
    return runOptions.alone ? this.gate.alone(() => this.runInCopy(fileText, label)) : this.gate.shared(() => this.runInCopy(fileText, label));
  }

  private async runInCopy(fileText: string, label: string): Promise<Verdict> {
    const { request, listing, relativePath, logger, signal } = this.options;
    if (signal.aborted) return errorVerdict('cancelled');
    // A copy of a vanished workspace would hold only the target file, and its verdict would mean nothing.
    if (!existsSync(request.workspace)) return errorVerdict('the workspace folder was removed during the run');
    const t0 = performance.now();
    let copyDir: string | undefined;
    try {
      copyDir = await createCopy(listing, this.options.requestDir, label);
      await writeIntoCopy(copyDir, relativePath, fileText);
      const copy = copyDir;
      const verdict = await runTestCommand({
        command: this.options.testCommand,
        cwd: copy,
        readOnlyPaths: [request.workspace],
        readOnlyInCopy: this.readOnlyInCopy.map((rel) => join(copy, rel)),
        hiddenFolders: [tempRootPath()],
        timeoutMs: request.testTimeoutMs,
        signal,
        capabilities: this.options.capabilities,
        allowNetwork: request.isolation.allowNetwork,
        memoryMB: request.isolation.memoryMB,
        env: this.options.env,
      });
      // A cancelled run is dropped, not judged: its reason must survive.
      if (verdict.reason === 'cancelled') return verdict;
      const tampered = await changedTestFiles(copy, this.testHashes);
      if (tampered.length > 0) return this.redact({ ...verdict, status: 'error', reason: `the run modified test files: ${tampered.join(', ')}` });
      const planted = await newRunnerFiles(copy, this.listed, listing.linkedFolders, this.linkedEntries);
      if (planted.length > 0) return this.redact({ ...verdict, status: 'error', reason: `the run created files the test runner loads: ${planted.join(', ')}` });
      return this.redact(verdict);
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      logger.error(err);
      const what = copyDir ? 'run failed' : 'copy failed';
      return errorVerdict(`${what}: ${err.code === 'ENOSPC' ? 'no space left in the temp folder' : err.message}`, Math.round(performance.now() - t0));
    } finally {
      // Removal does not hold the run's slot: the next candidate starts while this copy goes (awaited in dispose).
      if (copyDir) {
        const dir = copyDir;
        this.removals.push(
          removeOrSetAside(dir, tempRootPath()).then((problem) => {
            if (problem) logger.warn(problem);
          }),
        );
      }
    }
  }

  /** Output is shown, logged and sent to models: no secret value may be in it. */
  private redact(verdict: Verdict): Verdict {
    const { redactor } = this.options;
    return {
      ...verdict,
      output: redactor.redact(verdict.output),
      stdout: redactor.redact(verdict.stdout),
      stderr: redactor.redact(verdict.stderr),
      ...(verdict.reason ? { reason: redactor.redact(verdict.reason) } : {}),
    };
  }

  /** Waits for every copy to be removed, then removes the request's folder. */
  async dispose(): Promise<void> {
    await Promise.all(this.removals);
    const problem = await removeOrSetAside(this.options.requestDir, tempRootPath());
    if (problem) this.options.logger.warn(problem);
  }
}
