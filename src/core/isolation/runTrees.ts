// The folder tree a test run works in: the workspace plus one candidate's file, made as cheaply as the system allows.
import type { OverlayMount } from '../sandbox/backend';
import type { IsolationMode } from '../contract/choices';

/** Paths (workspace-relative, `/`-separated) a run added, changed or removed in its tree. */
export interface TreeChanges {
  readonly added: readonly string[];
  readonly modified: readonly string[];
  readonly removed: readonly string[];
}

/** One run's tree: where the command runs, and what it changed there once it has ended. */
export interface RunTree {
  /** The run's working directory: a copy, or with an overlay the workspace's own path. */
  readonly dir: string;
  /** With overlay isolation: what the sandbox mounts at `dir`. */
  readonly overlay?: OverlayMount;
  /** What the run changed, the candidate's own file left out. */
  changes(): Promise<TreeChanges>;
}


/** Hands out trees for one request's runs and takes them back. */
export interface RunTrees {
  readonly mode: IsolationMode;
  /** One line for the log: what a run costs in files. */
  readonly description: string;
  /** A tree holding the workspace with `fileText` as the target file. */
  acquire(label: string, fileText: string): Promise<RunTree>;
  /** The run has ended: the tree is reset for another run, or removed (`discard`: its changes cannot be trusted). */
  release(tree: RunTree, discard: boolean): Promise<void>;
  /** Every tree removed; warnings for what could only be set aside. */
  dispose(): Promise<void>;
}
