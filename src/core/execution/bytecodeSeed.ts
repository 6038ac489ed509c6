// Python's bytecode carried from the baseline into the request's later runs. Each run is a fresh overlay of the
// workspace and writes no bytecode (localRun.ts), so where the workspace holds none for a module (Python told not to
// write any, as PYTHONDONTWRITEBYTECODE does in many containers and on this project's CI machines; or a source changed
// since the user's last run) every run compiled that module again, and pytest rewrote every test module's asserts
// again: toolz's suite takes 1.4 s that way and 0.55 s with its bytecode, and each shared stage-1 round paid it too.
// The baseline's run, the unmodified code's, writes its bytecode into its own upper layer; what it wrote there, less
// the file under repair's, becomes a read-only layer of every later run's overlay, between the workspace and the
// run's own layer. Python checks each file against its source's size and time as it always does, so a source a run
// changes is compiled anew; no run writes where another reads.
import { constants } from 'node:fs';
import { chmod, copyFile, link, lstat, mkdir, utimes } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Logger } from '../base/logger';

/** The folder of Python's bytecode beside a module's source, and a bytecode file's ending. */
const CACHE_FOLDER = '__pycache__';
const BYTECODE = '.pyc';

/** Whether `rel` (workspace-relative, `/`-separated) is bytecode Python keeps beside a source. */
function isBytecode(rel: string): boolean {
  return rel.endsWith(BYTECODE) && posix.basename(posix.dirname(rel)) === CACHE_FOLDER;
}

/**
 * Whether `rel` is bytecode of the file under repair (`module.cpython-311.pyc`, pytest's rewritten
 * `module.cpython-311-pytest-8.3.3.pyc`, an optimised `module.cpython-311.opt-1.pyc`): each candidate has its own text.
 */
function ofTarget(rel: string, target: string): boolean {
  const stem = posix.basename(target).replace(/\.[^.]*$/, '');
  return posix.dirname(posix.dirname(rel)) === posix.dirname(target) && posix.basename(rel).startsWith(`${stem}.`);
}

/** The request's bytecode layer: none until the baseline's run has written bytecode. */
export class BytecodeSeed {
  private layer?: string;

  constructor(
    private readonly requestDir: string,
    private readonly workspace: string,
    private readonly target: string,
    private readonly logger: Logger,
  ) {}

  /** The read-only layers a run gets, topmost first: the baseline's bytecode once it is in, else none. */
  layers(): readonly string[] {
    return this.layer ? [this.layer] : [];
  }

  /**
   * After the baseline's run (trusted: it ran the unmodified code and its tamper check found nothing): the bytecode
   * among `written` (its tree's added and changed files) in its upper layer `upper` becomes the layer of later runs.
   * The files are linked, not copied: the run is over, nothing of it still writes them, and its layer goes.
   */
  async keep(upper: string, written: readonly string[]): Promise<void> {
    const files = written.filter((rel) => isBytecode(rel) && !ofTarget(rel, this.target));
    if (files.length === 0) return;
    const layer = join(this.requestDir, 'bytecode');
    const folders = new Set<string>();
    let bytes = 0;
    let kept = 0;
    for (const rel of files) {
      const from = join(upper, rel);
      const stats = await lstat(from).catch(() => undefined);
      if (!stats?.isFile()) continue;
      await mkdir(join(layer, posix.dirname(rel)), { recursive: true, mode: 0o700 });
      for (let folder = posix.dirname(rel); folder !== '.'; folder = posix.dirname(folder)) folders.add(folder);
      const to = join(layer, rel);
      if (!(await link(from, to).then(() => true, () => copyFile(from, to, constants.COPYFILE_EXCL).then(() => true, () => false)))) continue;
      bytes += stats.size;
      kept += 1;
    }
    if (kept === 0) return;
    await likeWorkspace(layer, this.workspace, folders, upper);
    this.layer = layer;
    this.logger.info(`python's bytecode: each later run reads what the baseline compiled (${kept} file${kept === 1 ? '' : 's'}, ${(bytes / 1024 / 1024).toFixed(1)} MB; the file under repair's left out), from a read-only layer of its overlay`);
  }

  /**
   * Before the baseline's run: the bytecode folders of the Python sources in read-only test folders (`readOnly`,
   * workspace-relative), made in the run's upper layer `upper`, so the run can be given them writable there (pytest
   * writes each test module's rewritten bytecode beside it: toolz's suite takes 0.95 s without those, 0.55 s with).
   * Returns them, workspace-relative.
   */
  async openFolders(upper: string, files: readonly string[], readOnly: readonly string[]): Promise<string[]> {
    const inReadOnly = (folder: string) => readOnly.some((path) => folder === path || folder.startsWith(`${path}/`));
    const folders = [...new Set(files.filter((rel) => rel.endsWith('.py')).map((rel) => posix.dirname(rel)))].filter(inReadOnly).map((folder) => `${folder}/${CACHE_FOLDER}`);
    const made = new Set<string>();
    for (const folder of folders) {
      await mkdir(join(upper, folder), { recursive: true, mode: 0o755 });
      for (let above = posix.dirname(folder); above !== '.'; above = posix.dirname(above)) made.add(above);
    }
    await likeWorkspace(upper, this.workspace, made);
    return folders.sort();
  }
}

/**
 * Each of `folders` in the layer `layer` shows in a run in place of the workspace's (an overlay shows a folder with
 * the attributes of its topmost layer), so each takes that folder's mode and times, deepest first, once its files are
 * in; a folder the workspace lacks takes those of the same folder in `fallback`, where it has one.
 */
async function likeWorkspace(layer: string, workspace: string, folders: ReadonlySet<string>, fallback?: string): Promise<void> {
  const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const rel of deepestFirst) {
    const original = await lstat(join(workspace, rel)).catch(() => (fallback ? lstat(join(fallback, rel)) : undefined)).catch(() => undefined);
    if (!original?.isDirectory()) continue;
    await chmod(join(layer, rel), original.mode & 0o7777);
    await utimes(join(layer, rel), original.atime, original.mtime);
  }
}
