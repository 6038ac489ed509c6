// Trees that are copies of the workspace: made once and reset by what each run changed (`reuse`), or made and removed
// for every run (`copy`, the fallback that needs nothing of the system).
import { chmod, lstat, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../base/logger';
import { removeReporting } from './tempRoot';
import { copyEntry, createCopy, pathInCopy, writeIntoCopy } from './workspaceCopy';
import type { WorkspaceListing } from './workspaceCopy';
import type { RunTree, RunTrees, TreeChanges } from './runTrees';
import { diffTree, entryState, snapshotTree } from './treeChanges';
import type { TreeSnapshot } from './treeChanges';

interface CopyTree extends RunTree {
  readonly snapshot: TreeSnapshot;
}

/** A reset touching more paths than this costs about what a new copy does: the copy is replaced instead. */
const MAX_RESET_PATHS = 2000;

export class CopyTrees implements RunTrees {
  readonly description: string;
  private readonly free: CopyTree[] = [];
  private readonly removals: Array<Promise<void>> = [];
  private readonly listed: ReadonlySet<string>;

  constructor(
    readonly mode: 'reuse' | 'copy',
    private readonly listing: WorkspaceListing,
    private readonly requestDir: string,
    private readonly target: string,
    private readonly logger: Logger,
  ) {
    this.listed = new Set(listing.files);
    const linked = listing.linkedFolders.join(', ') || 'none';
    const what = `${listing.files.length} files (${listing.source}), linked: ${linked}`;
    this.description = mode === 'reuse' ? `copies reused across runs and reset by what each run changed: ${what}` : `a fresh copy per run: ${what}`;
  }

  async acquire(label: string, fileText: string): Promise<RunTree> {
    const tree = this.free.pop() ?? (await this.create(label));
    try {
      await writeIntoCopy(tree.dir, this.target, fileText);
    } catch (error) {
      this.remove(tree.dir);
      throw error;
    }
    return tree;
  }

  private async create(label: string): Promise<CopyTree> {
    const dir = await createCopy(this.listing, this.requestDir, label);
    const snapshot = await snapshotTree(dir);
    return {
      dir,
      snapshot,
      changes: async (): Promise<TreeChanges> => {
        const { added, modified, removed } = await diffTree(dir, snapshot);
        const others = (paths: readonly string[]) => paths.filter((rel) => rel !== this.target);
        return { added: others(added), modified: others(modified), removed: others(removed) };
      },
    };
  }

  async release(tree: RunTree, discard: boolean): Promise<void> {
    const copy = tree as CopyTree;
    if (this.mode === 'copy' || discard || !(await this.reset(copy))) {
      this.remove(copy.dir);
      return;
    }
    this.free.push(copy);
  }

  /**
   * Puts back what the run changed: new entries removed, changed or removed listed files copied again, folder modes
   * restored. False when that cannot be done exactly (a dependency link changed, an entry that will not go).
   */
  private async reset(copy: CopyTree): Promise<boolean> {
    try {
      const diff = await diffTree(copy.dir, copy.snapshot);
      const restore = [...diff.modified, ...diff.removed].filter((rel) => rel !== this.target);
      if (diff.added.length + diff.addedDirs.length + restore.length > MAX_RESET_PATHS) return false;
      if (restore.some((rel) => !this.listed.has(rel))) return false;
      for (const rel of diff.changedDirs) await chmod(pathInCopy(copy.dir, rel), copy.snapshot.get(rel)?.mode ?? 0o755);
      // Top-most new folders only: removing one removes what is in it.
      const newDirs = diff.addedDirs.filter((rel) => !diff.addedDirs.some((other) => rel.startsWith(`${other}/`)));
      await Promise.all([...diff.added, ...newDirs].map((rel) => rm(pathInCopy(copy.dir, rel), { recursive: true, force: true })));
      for (const rel of restore) {
        const path = pathInCopy(copy.dir, rel);
        await rm(path, { force: true });
        await mkdir(dirname(path), { recursive: true });
        await copyEntry(this.listing.workspace, copy.dir, rel);
        copy.snapshot.set(rel, entryState(await lstat(path, { bigint: true })));
      }
      // Parents of restored files and of removed entries changed their times, not their state: nothing to record.
      return true;
    } catch (error) {
      this.logger.info(`a copy could not be reset (${(error as Error).message}); it is replaced by a new one`);
      return false;
    }
  }

  private remove(dir: string): void {
    this.removals.push(removeReporting(dir, (problem) => this.logger.warn(problem)));
  }

  async dispose(): Promise<void> {
    for (const tree of this.free.splice(0)) this.remove(tree.dir);
    await Promise.all(this.removals);
  }
}
