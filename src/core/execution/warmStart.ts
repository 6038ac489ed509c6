// What one request's baseline leaves for the next request on the same workspace: jest's cache and Python's bytecode.
// Within a request, later runs start from the baseline's (runnerCache.ts, bytecodeSeed.ts); without this, every
// request's baseline, and the head start beside it, started cold: jest transformed every file again (chrono's suite
// takes 8.5 s cold and 5.8 s warm), Python compiled every module and pytest rewrote every test module again. Only
// a baseline's output is kept (the unmodified code's run, trusted), never a candidate's; what is kept is checked
// again by the next request (bytecode against the sources as they are then; jest keys its cache by each file's
// content), and it is only ever copied into a run's own folders, never shown to a run where it lives.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { cacheHomePath } from '../base/cacheHome';
import { copyTree } from '../base/copyTree';
import type { Logger } from '../base/logger';

/** What is kept: jest's cache folder, and the layer of Python's bytecode. */
export type WarmKind = 'jest' | 'bytecode';

/** The workspaces whose state is kept, the most recently used: older ones are removed. */
export const WARM_WORKSPACES = 8;

/** A kind larger than this is not kept (copying it into each request would cost more than it saves). */
export const WARM_MAX_BYTES = 64 * 1024 * 1024;

/** A half-made or replaced copy (a process that died while keeping) older than this is removed by the next keep. */
const LEFTOVER_MS = 10 * 60_000;

/** `${XDG_CACHE_HOME:-~/.cache}/verified-fix/warm`: one folder per workspace and commit, named by a hash of both. */
export function warmRootPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheHomePath(env), 'verified-fix', 'warm');
}

/**
 * Whether `path` is a folder only this user can write: not a link, owned by the user, no group or other write. A
 * kept folder anyone else could write would let them plant jest cache entries for the next request.
 */
async function ownFolder(path: string): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  const uid = process.getuid?.();
  return Boolean(stats?.isDirectory() && (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0);
}

/** `path` with its longest existing part resolved (links followed), the rest as given. */
async function resolvedPath(path: string): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = dirname(path);
  return parent === path ? path : join(await resolvedPath(parent), basename(path));
}

/** Whether `child` is `parent` or lies inside it (both resolved). */
function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** Whether `workspace` or a folder above it holds a `.git`. */
function inGitCheckout(workspace: string): boolean {
  for (let folder = workspace; ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return true;
    if (dirname(folder) === folder) return false;
  }
}

/** A request's kept state: the store, and the folder every run of the request hides. */
export interface KeptState {
  readonly store: WarmStore;
  /**
   * The folder to hide from a run about to start, made again if it was removed meanwhile (a folder to hide that is
   * not there would fail the run's sandbox); none where it cannot be made.
   */
  foldersToHide(): Promise<string[]>;
}

/**
 * The kept state of a request on `workspace` (resolved) at `commit`, or none, with the log saying why: where its
 * folder lies inside the workspace (the runs would see it), where git did not list a workspace inside a checkout
 * (one it refuses, owned by another user: without the commit, another checkout at the same path would share it),
 * or where its folder cannot be made. Never throws.
 */
export async function openKeptState(workspace: string, commit: string | undefined, listedByGit: boolean, logger: Logger, folder?: string): Promise<KeptState | undefined> {
  const off = (why: string) => {
    logger.info(`kept state: nothing is kept from one request to the next, since ${why}`);
    return undefined;
  };
  try {
    // In here: without a home folder, homedir() throws.
    const root = folder ?? warmRootPath();
    if (inside(workspace, await resolvedPath(root))) return off(`${root} lies inside the workspace (point XDG_CACHE_HOME elsewhere)`);
    if (!listedByGit && inGitCheckout(workspace)) return off('git could not read the checkout the workspace is in, so its commit is unknown');
    // The umask can only narrow 0700.
    await mkdir(root, { recursive: true, mode: 0o700 });
    const hidden = await realpath(root);
    return {
      store: new WarmStore(workspace, commit, logger, root),
      foldersToHide: () => mkdir(hidden, { recursive: true, mode: 0o700 }).then(() => [hidden], () => []),
    };
  } catch (error) {
    return off(`its folder could not be made (${(error as Error).message})`);
  }
}

/**
 * The warm state of one workspace at one commit: read before its request's first runs, replaced after its baseline.
 * Keyed by the commit too (git's HEAD, where there is one), so that what one checkout's tests left never reaches
 * another checked out at the same path later (another person's pull request on a CI runner); a commit of your own
 * starts cold once.
 */
export class WarmStore {
  private readonly folder: string;
  private readonly saves: Array<Promise<void>> = [];

  constructor(
    private readonly workspace: string,
    private readonly commit: string | undefined,
    private readonly logger: Logger,
    private readonly root = warmRootPath(),
  ) {
    this.folder = join(root, createHash('sha256').update(`${workspace}\0${commit ?? ''}`).digest('hex').slice(0, 16));
  }

  /** Where the kept state lives, for the log. */
  get location(): string {
    return this.folder;
  }

  /**
   * A copy of the kept `kind` made at `to` (which must not exist): true once it is there whole. False where nothing
   * is kept or the copy failed (another request replacing it meanwhile, a full disk): `to` is then absent.
   */
  async copyOut(kind: WarmKind, to: string): Promise<boolean> {
    const from = join(this.folder, kind);
    if (!(await this.trusted()) || !(await stat(from).then((s) => s.isDirectory(), () => false))) return false;
    if (await copyTree(from, to)) {
      await utimes(this.folder, new Date(), new Date()).catch(() => undefined);
      return true;
    }
    await rm(to, { recursive: true, force: true }).catch(() => undefined);
    return false;
  }

  /**
   * Keeps a copy of `from` as `kind` for the next request, in the background (`settled` waits for it): copied beside
   * the kept one, then swapped in by renaming, so a request reading it meanwhile copies the old one whole or fails
   * its copy. Over WARM_MAX_BYTES (`bytes`), the kept one is removed instead. Never throws.
   */
  keep(kind: WarmKind, from: string, bytes: number): void {
    this.saves.push(this.replace(kind, bytes > WARM_MAX_BYTES ? undefined : from).catch((error: unknown) => {
      this.logger.info(`kept state: ${kind} could not be kept for the next request (${(error as Error).message})`);
    }));
  }

  /** Waits for every copy `keep` started: the request's folder, where they copy from, goes next. */
  async settled(): Promise<void> {
    await Promise.all(this.saves);
  }

  private async replace(kind: WarmKind, from: string | undefined): Promise<void> {
    // The time in the name, not the copy's (cp -a keeps the source's): how old a leftover is (removeLeftovers).
    const suffix = `${Date.now()}-${randomBytes(6).toString('hex')}`;
    const kept = join(this.folder, kind);
    const fresh = join(this.folder, `${kind}.new-${suffix}`);
    const old = join(this.folder, `${kind}.old-${suffix}`);
    // The umask can only narrow 0700.
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    if (!(await this.trusted())) throw new Error(`${this.folder} or the folder above it is a link, another user's, or writable by others`);
    await this.removeLeftovers();
    try {
      if (from && !(await copyTree(from, fresh))) throw new Error(`${from} could not be copied`);
      await rename(kept, old).catch(() => undefined);
      if (from) await rename(fresh, kept);
    } finally {
      await Promise.all([rm(fresh, { recursive: true, force: true }), rm(old, { recursive: true, force: true })]);
    }
    // Says which workspace the hashed name stands for, to anyone clearing the folder by hand.
    await writeFile(join(this.folder, 'workspace.txt'), `${this.workspace}\n${this.commit ? `${this.commit}\n` : ''}`);
    await this.evict();
  }

  /**
   * Whether the folders the kept state lives in, `warm` and this workspace's, are this user's own (ownFolder): else
   * nothing is read or kept. Whoever could write the folders above could only put their own folder in its place.
   */
  private async trusted(): Promise<boolean> {
    const checks = await Promise.all([this.root, this.folder].map(ownFolder));
    return checks.every(Boolean);
  }

  /** Removes what a request that died while keeping left beside the kept state (`<kind>.new-<ms>-…`, `.old-…`). */
  private async removeLeftovers(): Promise<void> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const stale = Date.now() - LEFTOVER_MS;
    await Promise.all(names.map(async (name) => {
      const made = /\.(?:new|old)-(\d+)-[0-9a-f]+$/.exec(name);
      if (made && Number(made[1]) < stale) await rm(join(this.folder, name), { recursive: true, force: true }).catch(() => undefined);
    }));
  }

  /**
   * Removes the state this workspace kept at other commits (a commit is not checked out twice, as a rule, and each
   * could hold a cache of its own), then that of all but the WARM_WORKSPACES most recently used.
   */
  private async evict(): Promise<void> {
    const names = (await readdir(this.root).catch(() => [] as string[])).filter((name) => name !== basename(this.folder));
    const folders = await Promise.all(names.map(async (name) => ({
      name,
      at: await stat(join(this.root, name)).then((s) => (s.isDirectory() ? s.mtimeMs : -1), () => -1),
      workspace: (await readFile(join(this.root, name, 'workspace.txt'), 'utf8').catch(() => '')).split('\n')[0],
    })));
    const others = folders.filter((f) => f.at >= 0);
    const stale = [...others.filter((f) => f.workspace === this.workspace), ...others.filter((f) => f.workspace !== this.workspace).sort((a, b) => b.at - a.at).slice(WARM_WORKSPACES - 1)];
    await Promise.all(stale.map((f) => rm(join(this.root, f.name), { recursive: true, force: true }).catch(() => undefined)));
  }
}
