// Isolated copies of a workspace: the files git sees (or a .gitignore-aware walk), dependency folders linked.
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, open, readdir, readFile, readlink, realpath, rm, symlink, cp } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import ignore from 'ignore';
import pLimit from 'p-limit';
import { toolPath } from '../base/toolPath';
import { TOOL_CACHES } from './treeChanges';

/** What is copied and linked for every candidate of one request; listed once per request. */
export interface WorkspaceListing {
  readonly workspace: string;
  /** Files (and symlinks) to copy, relative, `/`-separated. */
  readonly files: readonly string[];
  /** Dependency folders to link instead of copying, relative (e.g. `node_modules`, `packages/a/node_modules`). */
  readonly linkedFolders: readonly string[];
  readonly source: 'git' | 'walk';
  /** The commit checked out (git's HEAD), where git lists the workspace and it has one. */
  readonly commit?: string;
}

const ALWAYS_EXCLUDED = ['.git'];
const COPY_CONCURRENCY = 32;

/**
 * Settings of the workspace's git configuration that run commands: a candidate that planted one in `.git/config`
 * (possible where the sandbox cannot make the original read-only) must not get it run by the next request.
 */
const GIT_SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.untrackedCache=false', '-c', 'core.sshCommand=false', '-c', 'diff.external=', '-c', 'protocol.allow=never'];

function git(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
    execFile(toolPath('git'), [...GIT_SAFE_CONFIG, ...args], { cwd, env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}

function isExcluded(path: string, names: ReadonlySet<string>, prefixes: readonly string[]): boolean {
  const parts = path.split('/');
  if (parts.some((p) => names.has(p))) return true;
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

async function walk(workspace: string, skip: ReadonlySet<string>): Promise<string[]> {
  const files: string[] = [];
  const matchers: Array<{ base: string; ig: ReturnType<typeof ignore> }> = [];
  async function visit(dir: string): Promise<void> {
    let pushed = false;
    try {
      matchers.push({ base: dir, ig: ignore().add(await readFile(join(workspace, dir, '.gitignore'), 'utf8')) });
      pushed = true;
    } catch {
      // no .gitignore here
    }
    for (const entry of await readdir(join(workspace, dir), { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      const isDir = entry.isDirectory();
      const ignored = matchers.some(({ base, ig }) => {
        const inBase = base ? rel.slice(base.length + 1) : rel;
        return ig.ignores(isDir ? `${inBase}/` : inBase);
      });
      if (ignored) continue;
      if (isDir) await visit(rel);
      else files.push(rel);
    }
    if (pushed) matchers.pop();
  }
  await visit('');
  return files;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lists what each copy holds. In a git work tree: `git ls-files --cached --others --exclude-standard`
 * (uncommitted and untracked work included, ignored files not). Elsewhere: a walk honouring .gitignore files.
 * Dependency folders named in `linkedNames` are found next to the root and next to every listed folder.
 */
export async function listWorkspace(workspace: string, linkedNames: readonly string[], excludes: readonly string[]): Promise<WorkspaceListing> {
  const names = new Set([...ALWAYS_EXCLUDED, ...linkedNames]);
  const prefixes = excludes.map((e) => e.replace(/\\/g, '/').replace(/^\.\/|\/+$/g, '')).filter(Boolean);
  const [listed, head] = await Promise.all([git(workspace, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']), git(workspace, ['rev-parse', '--verify', '--quiet', 'HEAD'])]);
  const commit = listed !== undefined ? head?.trim() : undefined;
  const source = listed === undefined ? 'walk' : 'git';
  const all = listed === undefined ? await walk(workspace, names) : [...new Set(listed.split('\0').filter(Boolean))];
  const files = all.filter((f) => !isExcluded(f, names, prefixes));
  const folders = new Set(['']);
  for (const f of files) for (let d = dirname(f); d !== '.' && !folders.has(d); d = dirname(d)) folders.add(d);
  const linkedFolders: string[] = [];
  for (const folder of folders) {
    for (const name of linkedNames) {
      const rel = folder ? `${folder}/${name}` : name;
      if (!isExcluded(rel, new Set(ALWAYS_EXCLUDED), prefixes) && (await exists(join(workspace, rel)))) linkedFolders.push(rel);
    }
  }
  return { workspace, files, linkedFolders: linkedFolders.sort(), source, ...(commit ? { commit } : {}) };
}

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Links a dependency folder as a real folder of per-entry links, so tools that write into it (vitest's
 * `node_modules/.vite`, vite's `.vite-temp`) write into the copy; the workspace's own caches there are left out, so
 * those writes never go through a link into the workspace (read-only in a sandbox, the user's files elsewhere).
 * Entries that link back into the workspace's own sources (monorepo packages) are redirected to the same place in
 * the copy.
 */
async function linkFolder(listing: WorkspaceListing, copyDir: string, rel: string): Promise<void> {
  const source = join(listing.workspace, rel);
  const target = join(copyDir, rel);
  await mkdir(target, { recursive: true });
  const realWorkspace = await realpath(listing.workspace);
  const entries = await readdir(source, { withFileTypes: true });
  const type = process.platform === 'win32' ? 'junction' : undefined;
  await Promise.all(
    entries.filter((entry) => !TOOL_CACHES.has(entry.name)).map(async (entry) => {
      let to = join(source, entry.name);
      if (entry.isSymbolicLink()) {
        const resolved = await realpath(to).catch(() => undefined);
        const linkedElsewhere = listing.linkedFolders.some((f) => resolved && inside(join(realWorkspace, f), resolved));
        if (resolved && inside(realWorkspace, resolved) && !linkedElsewhere) to = join(copyDir, relative(realWorkspace, resolved));
      }
      await symlink(to, join(target, entry.name), type);
    }),
  );
}

/** Copies one listed path from the workspace into a copy (a missing one is skipped: the copy mirrors the work tree). */
export async function copyEntry(workspace: string, copyDir: string, rel: string): Promise<void> {
  const from = join(workspace, rel);
  const to = join(copyDir, rel);
  let stats;
  try {
    stats = await lstat(from);
  } catch {
    return; // listed by git but deleted in the work tree: the copy mirrors the work tree
  }
  if (stats.isSymbolicLink()) await symlink(await readlink(from), to);
  else if (stats.isDirectory()) await cp(from, to, { recursive: true, verbatimSymlinks: true }); // a submodule
  else await copyFile(from, to, constants.COPYFILE_FICLONE);
}

/** Creates a copy under `parentDir` and returns its path. On failure the partial copy is removed. */
export async function createCopy(listing: WorkspaceListing, parentDir: string, prefix: string): Promise<string> {
  const copyDir = await mkdtemp(join(parentDir, `${prefix}-`));
  try {
    const dirs = new Set<string>();
    for (const f of listing.files) dirs.add(dirname(f));
    for (const d of [...dirs].sort()) if (d !== '.') await mkdir(join(copyDir, d), { recursive: true });
    const limit = pLimit(COPY_CONCURRENCY);
    // Files and links touch different paths, and both cost metadata round-trips: do them at once. All of them
    // settle before a failure is reported, so the removal below never races a copy still being written.
    const outcomes = await Promise.allSettled([
      ...listing.files.map((f) => limit(() => copyEntry(listing.workspace, copyDir, f))),
      ...listing.linkedFolders.map((folder) => linkFolder(listing, copyDir, folder)),
    ]);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
    return copyDir;
  } catch (error) {
    await removeCopy(copyDir);
    throw error;
  }
}

/** Removes a copy; links are removed, never followed. */
export async function removeCopy(copyDir: string): Promise<void> {
  await rm(copyDir, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Writes the candidate's text into the copy without ever following a link: the folder must resolve to itself inside
 * the copy, and the file is opened with O_NOFOLLOW, so a symlinked file or folder can never carry the write out of
 * the copy (into the original workspace, a dependency, or anywhere else).
 */
export async function writeIntoCopy(copyDir: string, rel: string, text: string): Promise<void> {
  const full = pathInCopy(copyDir, rel);
  const folder = dirname(full);
  if ((await realpath(folder)) !== join(await realpath(copyDir), relative(copyDir, folder))) throw new Error(`the folder of ${rel} is a link in the copy; refusing to write through it`);
  // A reused copy's last run may have turned the target into a FIFO (an open for writing would wait for a reader
  // forever), a folder or a device: anything but a regular file is removed first.
  const existing = await lstat(full).catch(() => undefined);
  if (existing && !existing.isFile()) await rm(full, { recursive: true, force: true });
  const handle = await open(full, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new Error(`${rel} in the copy is not a regular file; refusing to write to it`);
  }
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** The copy's path for a workspace-relative path, refusing paths that escape the copy. */
export function pathInCopy(copyDir: string, rel: string): string {
  const full = join(copyDir, rel);
  if (!inside(copyDir, full)) throw new Error(`path escapes the copy: ${rel}`);
  return full;
}
