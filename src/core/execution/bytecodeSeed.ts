// Python's bytecode carried from the baseline into the request's later runs. Each run is a fresh overlay of the
// workspace and writes no bytecode (localRun.ts), so where the workspace holds none for a module (Python told not to
// write any, as PYTHONDONTWRITEBYTECODE does in many containers and on this project's CI machines; or a source changed
// since the user's last run) every run compiled that module again, and pytest rewrote every test module's asserts
// again: toolz's suite takes 1.4 s that way and 0.55 s with its bytecode, and each shared stage-1 round paid it too.
// The baseline's run, the unmodified code's, writes its bytecode into its own upper layer; what it wrote there for
// the workspace's own unchanged sources becomes a read-only layer of every later run's overlay, between the workspace
// and the run's own layer, and is kept for the next request on the workspace (warmStart.ts), whose baseline starts
// from what of it is still current. No run writes where another reads. The seed is an optimisation: whatever fails
// in making it leaves the runs as they were without it.
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { chmod, copyFile, link, lstat, mkdir, open, rm, rmdir, utimes } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Logger } from '../base/logger';
import { walkTree } from '../isolation/treeChanges';
import type { WarmStore } from './warmStart';

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

/** Adds every folder above `rel` (workspace-relative) to `folders`. */
function addFoldersAbove(folders: Set<string>, rel: string): void {
  for (let folder = posix.dirname(rel); folder !== '.'; folder = posix.dirname(folder)) folders.add(folder);
}

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

/** The last request's layer as this request found it: the folder, and the files in it that were still current. */
interface PriorLayer {
  readonly layer: string;
  readonly files: readonly string[];
}

/** The request's bytecode layer: the last request's, checked, until the baseline's run has written its own. */
export class BytecodeSeed {
  private layer?: string;
  /** The last request's layer on this workspace, what of it is still current; undefined where none is. */
  private prior?: Promise<PriorLayer | undefined>;
  /** Workspace folders found to be real folders (realFolder), by path. */
  private readonly folders = new Map<string, Promise<boolean>>();

  constructor(
    private readonly requestDir: string,
    private readonly workspace: string,
    private readonly target: string,
    private readonly logger: Logger,
    private readonly warm?: WarmStore,
  ) {}

  /** The read-only layers a run gets, topmost first: the baseline's bytecode once it is in; before, the last request's. */
  async layers(): Promise<readonly string[]> {
    if (this.layer) return [this.layer];
    const prior = await this.priorLayer();
    return prior ? [prior.layer] : [];
  }

  /**
   * After the baseline's run (trusted: it ran the unmodified code and its tamper check found nothing): of what it
   * wrote in its upper layer `upper` (`written`: its tree's added and changed files), and of the last request's layer
   * it ran on, the bytecode of the workspace's own sources as they are becomes the layer of later runs, and of the
   * next request's first runs (bytecodeOf). The files are linked, not copied: the run is over, nothing of it still
   * writes them, and its layer goes. Never throws: a seed that cannot be made is left out, and the log says why.
   */
  async keep(upper: string, written: readonly string[]): Promise<void> {
    const changed = new Set(written);
    const layer = join(this.requestDir, 'bytecode');
    const prior = await this.priorLayer();
    try {
      const folders = new Set<string>();
      let bytes = 0;
      let kept = 0;
      // The last request's files that were current as this one began (no walk of its layer again); one the baseline
      // wrote again is taken from the baseline's layer instead.
      const fromPrior = prior ? prior.files.filter((rel) => !changed.has(rel)).map((rel) => ({ from: join(prior.layer, rel), rel })) : [];
      const files = [...written.map((rel) => ({ from: join(upper, rel), rel })), ...fromPrior];
      for (const { from, rel } of files) {
        const size = await this.currentSize(from, rel, changed);
        if (size === undefined) continue;
        await mkdir(join(layer, posix.dirname(rel)), { recursive: true, mode: 0o700 });
        addFoldersAbove(folders, rel);
        const to = join(layer, rel);
        await link(from, to).catch(() => copyFile(from, to, constants.COPYFILE_EXCL));
        bytes += size;
        kept += 1;
      }
      if (kept === 0) return;
      await likeWorkspace(layer, this.workspace, folders, [upper, ...(prior ? [prior.layer] : [])]);
      this.layer = layer;
      this.warm?.keep('bytecode', layer, bytes);
      this.logger.info(`python's bytecode: each later run reads what the baseline compiled (${kept} file${kept === 1 ? '' : 's'}, ${(bytes / 1024 / 1024).toFixed(1)} MB; the file under repair's left out), from a read-only layer of its overlay`);
    } catch (error) {
      await rm(layer, { recursive: true, force: true }).catch(() => undefined);
      this.logger.warn(`python's bytecode: the baseline's could not be kept for later runs, which compile their own (${(error as Error).message})`);
    }
  }

  /**
   * The size of the bytecode file at `path` (workspace-relative `rel`) where it is that of one of the workspace's own
   * sources as it is now: a source that is a regular file in the workspace, that the baseline did not write itself
   * (`changed`), is not the file under repair (each candidate has its own text), and whose size and time the
   * bytecode records. Undefined for anything else.
   */
  private async currentSize(path: string, rel: string, changed: ReadonlySet<string>): Promise<number | undefined> {
    const source = sourceOf(rel);
    if (source === undefined || source === this.target || changed.has(source)) return undefined;
    // Every folder above the source a real folder, and its bytecode folder too where the workspace has one: a layer's
    // folder hides what the workspace has at that path, so one kept where the workspace now has a link would hide the
    // sources the link leads to from every run.
    const cache = posix.dirname(rel);
    const cacheStats = await lstat(join(this.workspace, cache)).catch(() => undefined);
    if ((cacheStats && !cacheStats.isDirectory()) || !(await this.realFolder(posix.dirname(cache)))) return undefined;
    const [stats, original] = await Promise.all([lstat(path).catch(() => undefined), lstat(join(this.workspace, source)).catch(() => undefined)]);
    return stats?.isFile() && original?.isFile() && (await compiledFrom(path, original)) ? stats.size : undefined;
  }

  /** The last request's layer, loaded once (priorOf). */
  private priorLayer(): Promise<PriorLayer | undefined> {
    this.prior ??= this.priorOf();
    return this.prior;
  }

  /**
   * A copy of the layer the last request's baseline on this workspace left, with only the bytecode that is still
   * current (currentSize: a source the user changed since, or this request's file under repair, drops its own)
   * and no folder left empty, so nothing shows in a run that the workspace does not explain. Never throws.
   */
  private async priorOf(): Promise<PriorLayer | undefined> {
    const layer = join(this.requestDir, 'bytecode-prior');
    try {
      if (!this.warm || !(await this.warm.copyOut('bytecode', layer))) return undefined;
      const folders = new Set<string>();
      const files: string[] = [];
      for (const rel of await filesIn(layer)) {
        if ((await this.currentSize(join(layer, rel), rel, new Set())) === undefined) {
          await rm(join(layer, rel), { force: true });
          continue;
        }
        addFoldersAbove(folders, rel);
        files.push(rel);
      }
      const kept = files.length;
      await removeEmptyFolders(layer);
      if (kept === 0) {
        await rm(layer, { recursive: true, force: true });
        return undefined;
      }
      await likeWorkspace(layer, this.workspace, folders, []);
      this.logger.info(`python's bytecode: the baseline, and a run beside it, read what the last request's baseline on this workspace compiled where the sources are unchanged (${kept} file${kept === 1 ? '' : 's'}, kept in ${this.warm.location})`);
      return { layer, files };
    } catch (error) {
      await rm(layer, { recursive: true, force: true }).catch(() => undefined);
      this.logger.info(`python's bytecode: the last request's could not be read (${(error as Error).message}); the baseline compiles its own`);
      return undefined;
    }
  }

  /**
   * Before the baseline's run: the bytecode folders of the Python sources in read-only test folders (`readOnly`,
   * workspace-relative), made in the run's upper layer `upper`, so the run can be given them writable there (pytest
   * writes each test module's rewritten bytecode beside it: toolz's suite takes 0.95 s without those, 0.55 s with).
   * Only below folders that are real folders in the workspace (the listing is git's, which may name a folder that is
   * now a link), shallowest first up to OPEN_FOLDER_BYTES. (The run's writable bind is of its merged folder, which
   * shows the layers below too: the last request's bytecode for it among them.) Returns them, workspace-relative;
   * none where they cannot be made (the log says why): the baseline then compiles those folders' modules in every
   * run, as before.
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
        addFoldersAbove(made, folder);
      }
      await likeWorkspace(upper, this.workspace, made, []);
      return opened.sort();
    } catch (error) {
      this.logger.warn(`python's bytecode: the test folders' could not be opened to the baseline's run (${(error as Error).message}); their modules are compiled in every run`);
      return [];
    }
  }

  /** Whether `rel` and every folder above it are folders in the workspace, not links (each folder looked at once). */
  private realFolder(rel: string): Promise<boolean> {
    if (rel === '.' || rel === '') return Promise.resolve(true);
    let known = this.folders.get(rel);
    if (!known) {
      known = lstat(join(this.workspace, rel)).then((stats) => stats.isDirectory() && this.realFolder(posix.dirname(rel)), () => false);
      this.folders.set(rel, known);
    }
    return known;
  }
}

/** The files under `dir` (not folders), relative to it with `/`. */
async function filesIn(dir: string): Promise<string[]> {
  const files: string[] = [];
  await walkTree(dir, (rel, stats) => {
    if (rel && !stats.isDirectory()) files.push(rel);
  });
  return files.sort();
}

/** Removes the folders under `dir` that hold no file, deepest first. */
async function removeEmptyFolders(dir: string): Promise<void> {
  const folders: string[] = [];
  await walkTree(dir, (rel, stats) => {
    if (rel && stats.isDirectory()) folders.push(rel);
  });
  for (const rel of folders.sort((a, b) => depth(b) - depth(a))) await rmdir(join(dir, rel)).catch(() => undefined);
}

/**
 * Each of `folders` in the layer `layer` shows in a run in place of the workspace's (an overlay shows a folder with
 * the attributes of its topmost layer), so each takes that folder's mode and times, deepest first, once its files are
 * in; a folder the workspace lacks takes those of the same folder in the first of `fallbacks` that has one.
 */
async function likeWorkspace(layer: string, workspace: string, folders: ReadonlySet<string>, fallbacks: readonly string[]): Promise<void> {
  const deepestFirst = [...folders].sort((a, b) => depth(b) - depth(a));
  for (const rel of deepestFirst) {
    let original: Stats | undefined;
    for (const root of [workspace, ...fallbacks]) {
      original = await lstat(join(root, rel)).catch(() => undefined);
      if (original) break;
    }
    if (!original?.isDirectory()) continue;
    await chmod(join(layer, rel), original.mode & 0o7777);
    await utimes(join(layer, rel), original.atime, original.mtime);
  }
}
