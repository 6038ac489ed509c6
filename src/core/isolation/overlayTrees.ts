// Trees that are overlays of the workspace: nothing copied, the candidate's file placed in a private upper layer that
// also takes every write of the run, and nothing to remove afterwards but that layer.
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../base/logger';
import { removeReporting } from './tempRoot';
import { pathInCopy } from './workspaceCopy';
import type { RunTree, RunTrees } from './runTrees';
import { overlayChanges } from './treeChanges';

interface OverlayTree extends RunTree {
  /** The run's folder under the request folder: the upper layer and overlayfs's work folder. */
  readonly layers: string;
}

/** overlayfs creates `work/work` with no permissions; its owner may restore them, and must before removing it. */
async function removeLayers(dir: string, warn: (message: string) => void): Promise<void> {
  await chmod(join(dir, 'work', 'work'), 0o700).catch(() => undefined);
  await removeReporting(dir, warn);
}

export class OverlayTrees implements RunTrees {
  readonly mode = 'overlay';
  readonly description: string;
  private readonly removals: Array<Promise<void>> = [];

  /** `workspace` is the real path: the overlay is mounted over it, and it is the run's working directory. */
  constructor(
    private readonly workspace: string,
    private readonly requestDir: string,
    private readonly target: string,
    private readonly logger: Logger,
  ) {
    this.description = 'an overlay of the workspace per run (copy-on-write: nothing is copied, writes go to the run\'s own layer)';
  }

  async acquire(label: string, fileText: string): Promise<OverlayTree> {
    const dir = await mkdtemp(join(this.requestDir, `${label}-`));
    const upper = join(dir, 'upper');
    const work = join(dir, 'work');
    try {
      await mkdir(upper);
      await mkdir(work);
      await this.placeCandidate(upper, fileText);
    } catch (error) {
      this.remove(dir);
      throw error;
    }
    return { dir: this.workspace, overlay: { lower: this.workspace, upper, work }, changes: () => overlayChanges(upper, this.workspace), layers: dir };
  }

  /**
   * The candidate's file in the upper layer, with the modes of the original file and of the folders above it (an
   * upper folder's attributes are what the merged folder shows), set last so a read-only folder can still be filled.
   */
  private async placeCandidate(upper: string, fileText: string): Promise<void> {
    const path = pathInCopy(upper, this.target);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const modeOf = async (rel: string) => (await lstat(join(this.workspace, rel))).mode & 0o7777;
    const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, await modeOf(this.target));
    try {
      await handle.writeFile(fileText);
    } finally {
      await handle.close();
    }
    const parts = this.target.split('/');
    for (let depth = parts.length - 1; depth >= 1; depth--) {
      const rel = parts.slice(0, depth).join('/');
      await chmod(pathInCopy(upper, rel), await modeOf(rel));
    }
  }

  async release(tree: RunTree): Promise<void> {
    this.remove((tree as OverlayTree).layers);
  }

  private remove(dir: string): void {
    this.removals.push(removeLayers(dir, (problem) => this.logger.warn(problem)));
  }

  async dispose(): Promise<void> {
    await Promise.all(this.removals);
  }
}
