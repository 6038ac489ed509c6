// Runs one candidate's file text in a tree of its own on this machine (an overlay or a copy): sandboxed run, tamper
// check from what the run changed, and the tree reset or removed.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { FixRequest, Verdict } from '../contract/fixRequest';
import { chooseIsolation } from '../isolation/chooseIsolation';
import type { RunTree, RunTrees } from '../isolation/runTrees';
import { tamperingIn } from '../isolation/treeChanges';
import type { Logger } from '../base/logger';
import { RunGate } from './runGate';
import type { SandboxBackend } from '../sandbox/backend';
import type { Redactor } from '../security/secrets';
import { createRequestFolder, removeReporting, tempRootPath } from '../isolation/tempRoot';
import { readOnlyTestPaths } from '../security/testFiles';
import { workspaceSecrets } from '../security/hiddenPaths';
import { cancelledVerdict, errorVerdict } from './executor';
import type { ExecutedRun, RunOptions, TestExecutor } from './executor';
import { runTestCommand } from '../sandbox/runCommand';
import type { TestRunOptions } from '../sandbox/runCommand';
import type { WorkspaceListing } from '../isolation/workspaceCopy';
import type { Protections } from '../contract/protections';
import { jestCacheFolder, RUN_OUTPUT_FOLDER, RunnerCache } from './runnerCache';
import { BytecodeSeed } from './bytecodeSeed';
import { atLowestPriority } from './lowestPriority';
import { openKeptState } from './warmStart';
import type { KeptState } from './warmStart';
import type { TempBind } from '../sandbox/backend';

async function readReport(path: string): Promise<string | undefined> {
  try {
    const bytes = await readFile(path);
    return bytes.length > MAX_REPORT_BYTES ? undefined : bytes.toString('utf8');
  } catch {
    return undefined; // the runner wrote none (it crashed, or never started)
  }
}

/** The promise's value, or undefined as soon as `signal` aborts (the promise is left to settle on its own). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** What the executor needs of a request, fixed for all its runs. */
export interface LocalExecutorOptions {
  readonly request: FixRequest;
  readonly relativePath: string;
  readonly testCommand: string;
  readonly backend: SandboxBackend;
  readonly listing: WorkspaceListing;
  /** The run's environment, secrets already removed. */
  readonly env: NodeJS.ProcessEnv;
  readonly redactor: Redactor;
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/** A report larger than this is not read: no suite's per-test results come near it, a hostile run's might. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** Runs candidates of one request in trees of their own on this machine, contained by a sandbox backend. */
export class LocalExecutor implements TestExecutor {
  private readonly readOnlyInTree: readonly string[];
  private readonly removals: Array<Promise<void>> = [];
  private readonly gate = new RunGate();
  /** This request's folder under the temp root, made by `prepare`: every tree and report of the request lives in it. */
  private requestDir = '';
  /** The original workspace (copies link into it) and the targets of dependency folders that are links elsewhere. */
  private readonly readOnlyPaths: string[] = [];
  private trees?: RunTrees;
  /** The workspace's `.git` and untracked `.env*`, hidden from every run unless the user shows them. */
  private hiddenInTree: readonly string[] = [];
  /** Where each run has a private /tmp: jest's cache there, carried from the baseline into later runs. */
  private runnerCache?: RunnerCache;
  /** With overlays: Python's bytecode the baseline compiled, a read-only layer of every later run. */
  private bytecode?: BytecodeSeed;
  /** What the last request's baseline on this workspace left for this one's first runs, and this one's for the next. */
  private kept?: KeptState;

  constructor(private readonly options: LocalExecutorOptions) {
    this.readOnlyInTree = readOnlyTestPaths(options.listing.files, options.relativePath);
  }

  /** How runs get their trees, once `prepare` has chosen. */
  get isolation(): string {
    return this.trees ? `${this.trees.mode}: ${this.trees.description}` : 'not chosen yet';
  }

  get runsCanInterfere(): boolean {
    return !this.options.backend.isolatesRuns;
  }

  get protections(): Protections {
    return this.options.backend.protections(this.options.request.isolation);
  }

  async prepare(): Promise<void> {
    const { request, listing, relativePath, backend, logger } = this.options;
    this.requestDir = await createRequestFolder();
    const workspace = await realpath(request.workspace).catch(() => request.workspace);
    this.trees = await chooseIsolation({ choice: request.isolation.mode ?? 'auto', backend, workspace, listing, requestDir: this.requestDir, target: relativePath, logger });
    // Copies link into the original; an overlay is mounted over it, so it is the run's own (copy-on-write) tree.
    if (this.trees.mode !== 'overlay') this.readOnlyPaths.push(request.workspace);
    else {
      // Only with an overlay per run: a copy's path, which jest's cache keys hold, is new in every request.
      this.kept = await openKeptState(workspace, listing.commit, listing.source === 'git', logger);
      this.bytecode = new BytecodeSeed(this.requestDir, workspace, relativePath, logger, this.kept?.store);
    }
    // A dependency folder that is a link, or whose entries are (a shared store, another checkout's node_modules), must
    // stay visible, read-only, even where the sandbox hides the place its targets live in (a private /tmp).
    const outside = new Set<string>();
    const addIfOutside = async (path: string, parentOfTarget: boolean) => {
      const target = await realpath(path).catch(() => undefined);
      if (target && relative(workspace, target).startsWith('..')) outside.add(parentOfTarget ? dirname(target) : target);
    };
    for (const folder of listing.linkedFolders) {
      const entries = await readdir(join(request.workspace, folder), { withFileTypes: true }).catch(() => []);
      await addIfOutside(join(request.workspace, folder), false);
      await Promise.all(entries.filter((e) => e.isSymbolicLink()).map((e) => addIfOutside(join(request.workspace, folder, e.name), true)));
    }
    if (!request.isolation.showGitAndEnvFiles) {
      const names = await readdir(request.workspace).catch(() => [] as string[]);
      this.hiddenInTree = workspaceSecrets(workspace, names, new Set(listing.files));
    }
    const all = [...outside].sort();
    this.readOnlyPaths.push(...all.filter((path) => !all.some((other) => other !== path && path.startsWith(`${other}/`))));
    // Only where runners name their cache after /tmp: a TMPDIR elsewhere is not the run's own.
    const uid = backend.privateTempUid;
    const temp = this.options.env.TMPDIR?.replace(/\/+$/, '');
    if (uid !== undefined && (!temp || temp === '/tmp')) this.runnerCache = new RunnerCache(this.requestDir, jestCacheFolder(uid), logger, this.kept?.store);
  }

  /** One test run of `fileText` in a fresh copy; never throws. */
  async run(fileText: string, label: string, runOptions: RunOptions = {}): Promise<ExecutedRun> {
    if (this.options.signal.aborted || runOptions.signal?.aborted) return { verdict: cancelledVerdict() };
    const work = () => this.runInTree(fileText, label, runOptions);
    return runOptions.alone ? this.gate.alone(work) : this.gate.shared(work);
  }

  private async runInTree(fileText: string, label: string, { command, timeoutMs, waitingExtendsUpToMs, outputFiles, signal: own, lowPriority, seedsRunnerCache, onStarted }: RunOptions): Promise<ExecutedRun> {
    const { request, relativePath, logger } = this.options;
    const signal = own ? AbortSignal.any([this.options.signal, own]) : this.options.signal;
    const trees = this.trees;
    if (signal.aborted || !trees) return { verdict: cancelledVerdict() };
    // A tree of a vanished workspace would hold only the target file, and its verdict would mean nothing.
    if (!existsSync(request.workspace)) return { verdict: errorVerdict('the workspace folder was removed during the run') };
    const t0 = performance.now();
    let tree: RunTree | undefined;
    let reportDir: string | undefined;
    let outputDir: string | undefined;
    let trusted = false;
    let cache: TempBind | undefined;
    let cacheKept = false;
    try {
      const acquired = trees.acquire(label, fileText);
      // The total timeout covers preparing the tree too (a copy being made, a write that would wait).
      const ready = await untilAborted(acquired, signal);
      if (!ready) {
        void acquired.then((late) => trees.release(late, true), () => undefined);
        return { verdict: cancelledVerdict() };
      }
      tree = ready;
      const { dir } = tree;
      let reportPath: string | undefined;
      if (command) {
        // Beside the tree, not in it (runners scan their tree for tests). Write and search, no read: the run can create
        // the report by its name but cannot list the folder to find and forge it.
        reportDir = join(this.requestDir, `${label}-report-${randomBytes(8).toString('hex')}`);
        await mkdir(reportDir, { mode: 0o300 });
        reportPath = join(reportDir, `report-${randomBytes(8).toString('hex')}`);
      }
      if (outputFiles) {
        // Readable by the run too: what it writes there only guides the request (coverage), it never judges a candidate.
        outputDir = join(this.requestDir, `${label}-output-${randomBytes(8).toString('hex')}`);
        await mkdir(outputDir, { mode: 0o700 });
        for (const [name, text] of Object.entries(outputFiles)) await writeFile(join(outputDir, name), text);
      }
      cache = await this.runnerCache?.bindFor(label);
      // Where each run has a private /tmp, its output folder shows at one path in every run: jest keys its cache by
      // the project's config, and the config names the engine's files there (its guard as a setup file).
      const outputBind = cache && outputDir ? { source: outputDir, target: RUN_OUTPUT_FOLDER } : undefined;
      const shellCommand = command && reportPath ? command(reportPath, outputBind?.target ?? outputDir) : this.options.testCommand;
      const compiling = seedsRunnerCache === true && tree.overlay ? this.bytecode : undefined;
      const verdict = await runTestCommand({
        command: lowPriority ? atLowestPriority(shellCommand) : shellCommand,
        cwd: dir,
        ...(await this.bytecodeOf(tree, compiling)),
        readOnlyPaths: this.readOnlyPaths,
        readOnlyInCopy: this.readOnlyInTree.map((rel) => join(dir, rel)),
        hiddenFolders: [tempRootPath(), ...((await this.kept?.foldersToHide()) ?? [])],
        writablePaths: [reportDir, outputDir].filter((dir) => dir !== undefined),
        hiddenInTree: this.hiddenInTree,
        ...(cache ? { tempBinds: [cache, ...(outputBind ? [outputBind] : [])] } : {}),
        ...runLimits(request.testTimeoutMs, timeoutMs, waitingExtendsUpToMs),
        signal,
        backend: this.options.backend,
        allowNetwork: request.isolation.allowNetwork,
        memoryMB: request.isolation.memoryMB,
        env: this.options.env,
        ...(onStarted ? { onStarted } : {}),
      });
      // Readable again, so the report can be read and removed by a user without root's override.
      if (reportDir) await chmod(reportDir, 0o700).catch(() => undefined);
      // A cancelled run is dropped, not judged: its reason must survive.
      if (verdict.cancelled) return { verdict };
      const changes = await tree.changes();
      const problem = await tamperingIn(changes, relativePath, (rel) => this.existedBefore(rel));
      if (problem) return { verdict: this.redact({ ...verdict, status: 'error', reason: problem, cause: 'tamper' }) };
      trusted = true;
      if (seedsRunnerCache && cache && this.runnerCache) cacheKept = await this.runnerCache.keep(cache.source);
      if (compiling && tree.overlay) await compiling.keep(tree.overlay.upper, [...changes.added, ...changes.modified]);
      const report = reportPath ? await readReport(reportPath) : undefined;
      return {
        verdict: this.redact(verdict),
        cwd: dir,
        ...(report !== undefined ? { report: this.options.redactor.redact(report) } : {}),
        ...(outputDir ? { outputDir } : {}),
      };
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      logger.error(err);
      const what = tree ? 'run failed' : 'could not prepare the run\'s copy of the workspace';
      return { verdict: errorVerdict(`${what}: ${err.code === 'ENOSPC' ? 'no space left in the temp folder' : err.message}`, Math.round(performance.now() - t0), 'startFailed') };
    } finally {
      // Resetting or removing does not hold the run's slot: the next candidate starts meanwhile (awaited in dispose).
      for (const dir of [reportDir, cacheKept ? undefined : cache?.source]) {
        if (dir) this.removals.push(rm(dir, { recursive: true, force: true }).catch(() => undefined));
      }
      if (tree) this.removals.push(trees.release(tree, !trusted));
    }
  }

  /**
   * A run's overlay with the baseline's bytecode (before it is in, the last request's) beneath its own layer; for the
   * baseline's run itself (`compiling`), leave to write bytecode and the test folders opened for it. Every other run
   * writes none.
   */
  private async bytecodeOf(tree: RunTree, compiling: BytecodeSeed | undefined): Promise<Pick<TestRunOptions, 'overlay' | 'writesBytecode' | 'writableInCopy'>> {
    if (!tree.overlay) return {};
    const seeds = (await this.bytecode?.layers()) ?? [];
    const overlay = seeds.length > 0 ? { ...tree.overlay, seeds } : tree.overlay;
    if (!compiling) return { overlay };
    const opened = await compiling.openFolders(tree.overlay.upper, this.options.listing.files, this.readOnlyInTree);
    return { overlay, writesBytecode: true, writableInCopy: opened.map((rel) => join(tree.dir, rel)) };
  }

  /** Whether a path a run created was in the workspace before (a new package in node_modules is a planted module). */
  private async existedBefore(rel: string): Promise<boolean> {
    return existsSync(join(this.options.request.workspace, rel));
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

  /** Waits for every tree to be removed, then removes the request's folder. */
  async dispose(): Promise<void> {
    await Promise.all([...this.removals, this.kept?.store.settled()]);
    await this.trees?.dispose();
    if (!this.requestDir) return;
    await removeReporting(this.requestDir, (problem) => this.options.logger.warn(problem));
  }
}

/** A run's limits: its own, up to twice the request's (the retry of a confirmation that timed out), else the request's. */
function runLimits(requestMs: number, timeoutMs?: number, waitingExtendsUpToMs?: number): { timeoutMs: number; waitingExtendsUpToMs?: number } {
  const cap = 2 * requestMs;
  return { timeoutMs: Math.min(timeoutMs ?? requestMs, cap), ...(waitingExtendsUpToMs !== undefined ? { waitingExtendsUpToMs: Math.min(waitingExtendsUpToMs, cap) } : {}) };
}
