// What a run changed in its tree, found without hashing: a stat snapshot of a copy (ctime moves on every write, and
// no unprivileged process can set it back), or the upper layer of an overlay, which holds exactly what was written.
import type { BigIntStats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { safeNames } from '../base/outboundText';
import { isTestRelated, RUNNER_FILE } from '../security/testFiles';
import type { TreeChanges } from './runTrees';

/** What identifies one entry's state: a rewrite, chmod, rename or replacement changes at least one of these. */
export interface EntryState {
  readonly kind: 'file' | 'link' | 'dir' | 'other';
  readonly ino: bigint;
  readonly size: bigint;
  readonly mode: number;
  readonly ctimeNs: bigint;
  readonly mtimeNs: bigint;
}

export type TreeSnapshot = Map<string, EntryState>;

export function entryState(stats: BigIntStats): EntryState {
  const kind = stats.isFile() ? 'file' : stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'other';
  return { kind, ino: stats.ino, size: stats.size, mode: Number(stats.mode), ctimeNs: stats.ctimeNs, mtimeNs: stats.mtimeNs };
}

function sameState(a: EntryState, b: EntryState): boolean {
  return a.kind === b.kind && a.ino === b.ino && a.size === b.size && a.mode === b.mode && a.ctimeNs === b.ctimeNs && a.mtimeNs === b.mtimeNs;
}

/** Every entry under `root`, links not followed; `root` itself is the empty path. */
export async function walkTree(root: string, visit: (rel: string, stats: BigIntStats) => void): Promise<void> {
  const go = async (rel: string): Promise<void> => {
    const stats = await lstat(rel ? join(root, rel) : root, { bigint: true }).catch(() => undefined);
    if (!stats) return;
    visit(rel, stats);
    if (!stats.isDirectory()) return;
    const names = await readdir(join(root, rel)).catch(() => [] as string[]);
    await Promise.all(names.map((name) => go(rel ? `${rel}/${name}` : name)));
  };
  await go('');
}

export async function snapshotTree(root: string): Promise<TreeSnapshot> {
  const snapshot: TreeSnapshot = new Map();
  await walkTree(root, (rel, stats) => snapshot.set(rel, entryState(stats)));
  return snapshot;
}

/** A copy's changes against its snapshot; directories count as changed only when their mode is (their contents say the rest). */
export async function diffTree(root: string, snapshot: TreeSnapshot): Promise<TreeChanges & { readonly addedDirs: readonly string[]; readonly changedDirs: readonly string[] }> {
  const added: string[] = [];
  const addedDirs: string[] = [];
  const modified: string[] = [];
  const changedDirs: string[] = [];
  const seen = new Set<string>();
  await walkTree(root, (rel, stats) => {
    seen.add(rel);
    const before = snapshot.get(rel);
    const now = entryState(stats);
    if (!before) (now.kind === 'dir' ? addedDirs : added).push(rel);
    else if (before.kind === 'dir' && now.kind === 'dir') {
      if (before.mode !== now.mode) changedDirs.push(rel);
    } else if (!sameState(before, now)) modified.push(rel);
  });
  const removed = [...snapshot.keys()].filter((rel) => !seen.has(rel) && snapshot.get(rel)?.kind !== 'dir');
  return { added: added.sort(), addedDirs: addedDirs.sort(), modified: modified.sort(), removed: removed.sort(), changedDirs: changedDirs.sort() };
}

/** An overlay's changes: every non-folder entry of `upper`; a character device there is overlayfs's mark of a removal. */
export async function overlayChanges(upper: string, lower: string): Promise<TreeChanges> {
  const entries: Array<[string, BigIntStats]> = [];
  await walkTree(upper, (rel, stats) => {
    if (rel && !stats.isDirectory()) entries.push([rel, stats]);
  });
  const added: string[] = [];
  const modified: string[] = [];
  const removed: string[] = [];
  await Promise.all(
    entries.map(async ([rel, stats]) => {
      const existed = await lstat(join(lower, rel)).then(() => true, () => false);
      if (stats.isCharacterDevice()) {
        if (existed) removed.push(rel);
      } else (existed ? modified : added).push(rel);
    }),
  );
  return { added: added.sort(), modified: modified.sort(), removed: removed.sort() };
}

/** Folders modules are imported from by name: a package created in one is a planted module. */
const MODULE_FOLDERS = new Set(['node_modules', 'site-packages', 'dist-packages']);
/**
 * Folders tools fill with caches as they run (vite bundles its config into `node_modules/.vite-temp`, vitest keeps
 * its results in `node_modules/.vite`), which change nothing about what loads. A copy starts without them (its
 * dependency folders link every other entry: workspaceCopy.ts), so a run's writes there stay in the copy.
 */
export const TOOL_CACHES = new Set(['.vite', '.vite-temp', '.cache', '.vitest', '.pytest_cache', '__pycache__']);
/** TOOL_CACHES and git's own folder. */
const CACHES = new Set([...TOOL_CACHES, '.git']);

/** The package folder a path is in (`node_modules/evil`), unless it is a tool's dot-named cache. */
function packageOf(rel: string): string | undefined {
  const parts = rel.split('/');
  const at = parts.findIndex((part) => MODULE_FOLDERS.has(part));
  if (at < 0 || at + 1 >= parts.length || parts[at + 1].startsWith('.')) return undefined;
  return parts.slice(0, at + 2).join('/');
}

/**
 * Why a run's changes make its verdict worthless: it changed or removed a test, a fixture or the runner's
 * configuration, or created a file the runner loads (`conftest.py`, `sitecustomize.py`, `*.pth`, a runner config, a
 * package in `node_modules`); `existedBefore` says whether a path was in the tree before the run. Undefined when its changes are ordinary (build outputs, caches, the target itself).
 */
export async function tamperingIn(changes: TreeChanges, target: string, existedBefore: (rel: string) => Promise<boolean>): Promise<string | undefined> {
  const relevant = (rel: string) => rel !== target && !rel.split('/').some((part) => CACHES.has(part));
  const tests = [...changes.modified, ...changes.removed].filter((rel) => relevant(rel) && isTestRelated(rel));
  if (tests.length > 0) return `the run modified test files: ${safeNames([...new Set(tests)].sort())}`;
  const planted = new Set<string>();
  for (const rel of changes.added.filter(relevant)) {
    if (RUNNER_FILE.test(rel)) planted.add(rel);
    const pkg = packageOf(rel);
    // Files written inside an installed package are its own business (a build, a cache); a new package is not.
    if (pkg && !planted.has(pkg) && !(await existedBefore(pkg))) planted.add(pkg);
  }
  if (planted.size > 0) return `the run created files the test runner loads: ${safeNames([...planted].sort())}`;
  return undefined;
}
