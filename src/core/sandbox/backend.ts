// The seam between the engine and the ways of containing a test run: one object per backend, chosen once per request.
import type { BackendKind, Protections } from '../contract/protections';

/**
 * How a backend's setup script says it failed before the tests started: this prefix on a stderr line, then exit
 * `SANDBOX_SETUP_EXIT`. Written by the scripts and read by the runner, so the two cannot drift apart.
 */
export const SANDBOX_SETUP_MARKER = 'verified-fix sandbox: ';
export const SANDBOX_SETUP_EXIT = 125;


/**
 * A copy-on-write view of the workspace: inside the run, `lower` shows at its own path with every write landing in
 * `upper` (`work` is overlayfs's scratch folder, on the same file system as `upper`). `seeds`: read-only layers
 * between the two, topmost first (the bytecode the baseline compiled: execution/bytecodeSeed.ts).
 */
export interface OverlayMount {
  readonly lower: string;
  readonly upper: string;
  readonly work: string;
  readonly seeds?: readonly string[];
}

/** overlayfs's `lowerdir`: the seeds above the workspace. */
export function lowerLayers(overlay: OverlayMount): string {
  return [...(overlay.seeds ?? []), overlay.lower].join(':');
}

/** A host folder the run sees, writable, at `target` in its private /tmp (a runner's cache folder there). */
export interface TempBind {
  readonly source: string;
  readonly target: string;
}

/** One run as the engine asks for it. */
export interface RunSpec {
  /** The shell command line to run in the copy. */
  readonly command: string;
  /** The writable copy the command runs in (its working directory). */
  readonly copyDir: string;
  /** Folders the run must still see read-only (the original workspace, which dependency links point into). */
  readonly readOnlyPaths: readonly string[];
  /** Paths inside the copy the run may read but not change (tests, fixtures, runner configuration). */
  readonly readOnlyInCopy: readonly string[];
  /** Folders replaced by an empty one (the temp root holding the other runs' copies). */
  readonly hiddenFolders: readonly string[];
  /** Folders outside the copy the run may write (its test reporter's). */
  readonly writablePaths: readonly string[];
  /** Entries of the workspace the run must not see (`.git`, untracked `.env*`): covered after the tree is in place. */
  readonly hiddenInTree?: readonly string[];
  readonly allowNetwork: boolean;
  /** Memory cap in MiB; 0 = none. */
  readonly memoryMB: number;
  /** The run's environment, secrets already removed. */
  readonly env: NodeJS.ProcessEnv;
  /** The environment the engine runs in: its HOME and socket variables say what to hide. */
  readonly hostEnv: NodeJS.ProcessEnv;
  /** Mounted at `copyDir` (which is then `overlay.lower`) before anything else of the run; only where `mountsOverlay`. */
  readonly overlay?: OverlayMount;
  /** Bound into the run's private /tmp; only where `privateTempUid` is set. */
  readonly tempBinds?: readonly TempBind[];
  /** Python may write bytecode beside the sources (into the run's own overlay layer); else it writes none. */
  readonly writesBytecode?: boolean;
  /** Folders inside `readOnlyInCopy` the run may still write (where the baseline's run writes bytecode). */
  readonly writableInCopy?: readonly string[];
}

/** A run made ready by its backend: the process the runner spawns, and how the backend ends and cleans it. */
export interface PreparedRun {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The spawned process started (its PID, where the platform gave one). */
  started(pid: number | undefined): void;
  /**
   * Ends every process of the run now (timeout, cancel). Killing the spawned process is not always enough: a
   * container keeps running when its client dies.
   */
  stop(): Promise<void>;
  /** After the spawned process exited: ends whatever the run left behind and releases what it held. Never rejects. */
  release(): Promise<void>;
  /** Whether a process of the run was killed for going over the memory cap, where the backend can tell. */
  overMemory(): Promise<boolean>;
}

/** One way of containing test runs. */
export interface SandboxBackend {
  readonly kind: BackendKind;
  /** Whether runs cannot see or reach each other's copies (else a pass is confirmed with no other run active). */
  readonly isolatesRuns: boolean;
  /**
   * Whether runs use this machine's programs (its node and package manager). A container's image has its own, so a
   * script resolved against the node found here would not be the one the run gets.
   */
  readonly usesHostTools: boolean;
  /** Whether it can mount `RunSpec.overlay` (in a mount namespace of its own), so a run needs no copy. */
  readonly mountsOverlay: boolean;
  /**
   * The user id a run has, where each run gets a /tmp of its own that `RunSpec.tempBinds` can bind folders into
   * (runners name their cache folders there after it: jest's `/tmp/jest_<uid in base 36>`); undefined elsewhere.
   */
  readonly privateTempUid?: number;
  protections(options: { readonly allowNetwork: boolean; readonly memoryMB: number }): Protections;
  /** Everything a run needs before it is spawned (a cgroup, a container); never leaves anything behind on failure. */
  prepare(spec: RunSpec): Promise<PreparedRun>;
}
