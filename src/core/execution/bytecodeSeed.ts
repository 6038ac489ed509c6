// Python's bytecode carried from the baseline into the request's later runs. Each run is a fresh overlay of the
// workspace and writes no bytecode (localRun.ts), so where the workspace holds none for a module (Python told not to
// write any, as PYTHONDONTWRITEBYTECODE does in many containers and on this project's CI machines; or a source changed
// since the user's last run) every run compiled that module again, and pytest rewrote every test module's asserts
// again: toolz's suite takes 1.4 s that way and 0.55 s with its bytecode, and each shared stage-1 round paid it too.
// The baseline's run, the unmodified code's, writes its bytecode into its own upper layer; what it wrote there for
// the workspace's own unchanged sources becomes a read-only layer of every later run's overlay, between the workspace
// and the run's own layer. No run writes where another reads. The seed is an optimisation: whatever fails in making
// it leaves the runs as they were without it.
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { chmod, copyFile, link, lstat, mkdir, open, rm, utimes } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Logger } from '../base/logger';

/** The folder of Python's bytecode beside a module's source, and a bytecode file's ending. */
const CACHE_FOLDER = '__pycache__';
const BYTECODE = '.pyc';

/**
 * The argument bytes of the writable bytecode folders one baseline gets: under `unshare` each is named five times in
 * the setup script, one argument, which the system caps at 128 KiB (a project with hundreds of test folders made
 * the baseline fail to start). Past it, the other folders' test modules are compiled in every run, as before.
 */
const OPEN_FOLDER_BYTES = 16 * 1024;

/** How many folders deep `rel` is (workspace-relative, `/`-separated). */
const depth = (rel: string) => rel.split('/').length;

/**
 * The source `rel` holds the bytecode of (`pkg/__pycache__/mod.cpython-311.pyc`, pytest's rewritten
 * `mod.cpython-311-pytest-8.3.3.pyc`, an optimised `mod.cpython-311.opt-1.pyc`: `pkg/mod.py`), or undefined for a
 * file that is not bytecode beside a source.
 */
function sourceOf(rel: string): string | undefined {
  if (!rel.endsWith(BYTECODE) || posix.basename(posix.dirname(rel)) !== CACHE_FOLDER) return undefined;
  const stem = posix.basename(rel).split('.')[0];
  return stem ? posix.join(posix.dirname(posix.dirname(rel)), `${stem}.py`) : undefined;
}

/**
 * Whether the bytecode file at `path` was compiled from `source` as it is: a timestamp-checked header (CPython's and
 * pytest's alike: magic, flags 0, the source's modification time in seconds and its size, each 4 bytes) whose time
 * and size are the source's. Python checks no more than that when it loads one, so anything else is left out.
 */
async function compiledFrom(path: string, source: Stats): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const header = Buffer.alloc(16);
    const { bytesRead } = await handle.read(header, 0, 16, 0);
    if (bytesRead < 16 || header.readUInt32LE(4) !== 0) return false;
    return header.readUInt32LE(8) === (Math.floor(source.mtimeMs / 1000) >>> 0) && header.readUInt32LE(12) === (source.size >>> 0);
  } finally {
    await handle.close();
  }
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
   * After the baseline's run (trusted: it ran the unmodified code and its tamper check found nothing): of what it
   * wrote in its upper layer `upper` (`written`: its tree's added and changed files), the bytecode of the workspace's
   * own sources as they are becomes the layer of later runs: a source that is a regular file in the workspace, that
   * the run did not write itself, is not the file under repair (each candidate has its own text), and whose size
   * and time the bytecode records. The files are linked, not copied: the run is over, nothing of it still writes
   * them, and its layer goes. Never throws: a seed that cannot be made is left out, and the log says why.
   */
  async keep(upper: string, written: readonly string[]): Promise<void> {
    const changed = new Set(written);
    const layer = join(this.requestDir, 'bytecode');
    try {
      const folders = new Set<string>();
      let bytes = 0;
      let kept = 0;
      for (const rel of written) {
        const source = sourceOf(rel);
        if (source === undefined || source === this.target || changed.has(source)) continue;
        const from = join(upper, rel);
        const [stats, original] = await Promise.all([lstat(from).catch(() => undefined), lstat(join(this.workspace, source)).catch(() => undefined)]);
        if (!stats?.isFile() || !original?.isFile() || !(await compiledFrom(from, original))) continue;
        await mkdir(join(layer, posix.dirname(rel)), { recursive: true, mode: 0o700 });
        for (let folder = posix.dirname(rel); folder !== '.'; folder = posix.dirname(folder)) folders.add(folder);
        const to = join(layer, rel);
        await link(from, to).catch(() => copyFile(from, to, constants.COPYFILE_EXCL));
        bytes += stats.size;
        kept += 1;
      }
      if (kept === 0) return;
      await likeWorkspace(layer, this.workspace, folders, upper);
      this.layer = layer;
      this.logger.info(`python's bytecode: each later run reads what the baseline compiled (${kept} file${kept === 1 ? '' : 's'}, ${(bytes / 1024 / 1024).toFixed(1)} MB; the file under repair's left out), from a read-only layer of its overlay`);
    } catch (error) {
      await rm(layer, { recursive: true, force: true }).catch(() => undefined);
      this.logger.warn(`python's bytecode: the baseline's could not be kept for later runs, which compile their own (${(error as Error).message})`);
    }
  }

  /**
   * Before the baseline's run: the bytecode folders of the Python sources in read-only test folders (`readOnly`,
   * workspace-relative), made in the run's upper layer `upper`, so the run can be given them writable there (pytest
   * writes each test module's rewritten bytecode beside it: toolz's suite takes 0.95 s without those, 0.55 s with).
   * Only below folders that are real folders in the workspace (the listing is git's, which may name a folder that is
   * now a link), shallowest first up to OPEN_FOLDER_BYTES. Returns them, workspace-relative; none where they cannot
   * be made (the log says why): the baseline then compiles those folders' modules in every run, as before.
   */
  async openFolders(upper: string, files: readonly string[], readOnly: readonly string[]): Promise<string[]> {
    const inReadOnly = (folder: string) => readOnly.some((path) => folder === path || folder.startsWith(`${path}/`));
    const sources = [...new Set(files.filter((rel) => rel.endsWith('.py')).map((rel) => posix.dirname(rel)))].filter(inReadOnly);
    const opened: string[] = [];
    let bytes = 0;
    for (const folder of sources.sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))) {
      const cache = `${folder}/${CACHE_FOLDER}`;
      bytes += Buffer.byteLength(join(this.workspace, cache));
      if (bytes > OPEN_FOLDER_BYTES) break;
      if (await this.realFolder(folder)) opened.push(cache);
    }
    try {
      const made = new Set<string>();
      for (const folder of opened) {
        await mkdir(join(upper, folder), { recursive: true, mode: 0o755 });
        for (let above = posix.dirname(folder); above !== '.'; above = posix.dirname(above)) made.add(above);
      }
      await likeWorkspace(upper, this.workspace, made);
      return opened.sort();
    } catch (error) {
      this.logger.warn(`python's bytecode: the test folders' could not be opened to the baseline's run (${(error as Error).message}); their modules are compiled in every run`);
      return [];
    }
  }

  /** Whether `rel` and every folder above it are folders in the workspace, not links. */
  private async realFolder(rel: string): Promise<boolean> {
    for (let at = rel; at !== '.'; at = posix.dirname(at)) {
      const stats = await lstat(join(this.workspace, at)).catch(() => undefined);
      if (!stats?.isDirectory()) return false;
    }
    return true;
  }
}

/**
 * Each of `folders` in the layer `layer` shows in a run in place of the workspace's (an overlay shows a folder with
 * the attributes of its topmost layer), so each takes that folder's mode and times, deepest first, once its files are
 * in; a folder the workspace lacks takes those of the same folder in `fallback`, where it has one.
 */
async function likeWorkspace(layer: string, workspace: string, folders: ReadonlySet<string>, fallback?: string): Promise<void> {
  const deepestFirst = [...folders].sort((a, b) => depth(b) - depth(a));
  for (const rel of deepestFirst) {
    const original = await lstat(join(workspace, rel)).catch(() => (fallback ? lstat(join(fallback, rel)) : undefined)).catch(() => undefined);
    if (!original?.isDirectory()) continue;
    await chmod(join(layer, rel), original.mode & 0o7777);
    await utimes(join(layer, rel), original.atime, original.mtime);
  }
}
