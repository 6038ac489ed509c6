// The one temp root every copy lives under, one folder per live process, and the sweep of dead ones.
import { toolPath } from '../base/toolPath';
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../base/errors';
import { isAlive } from '../base/processAlive';

/** `<tmp>/verified-fix`, overridable (tests point it at a folder of their own). */
export function tempRootPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.VERIFIED_FIX_TMPDIR || join(tmpdir(), 'verified-fix');
}

const HALF_MADE_GRACE_MS = 60_000;

interface OwnerRecord {
  readonly pid: number;
  readonly startedAt: string;
}

/** Prefix of folders that could not be removed: kept out of every later request's way. */
const SET_ASIDE_PREFIX = 'stuck-';

function runQuietly(tool: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve) => execFile(toolPath(tool), args, { timeout: 60_000 }, () => resolve()));
}

const clearImmutable = (dir: string) => runQuietly('chattr', ['-R', '-i', '-a', dir]);

/**
 * A run can leave folders its owner cannot enter (mode 000) and trees deeper than PATH_MAX, which `fs.rm` walks by
 * full path (ENAMETOOLONG). `chmod -R` and `rm -rf` descend by relative paths from open folders (fts), so they
 * remove both; the folders are ours, so making them enterable is allowed.
 */
async function removeDescending(dir: string): Promise<void> {
  await runQuietly('chmod', ['-R', 'u+rwx', '--', dir]);
  await runQuietly('rm', ['-rf', '--', dir]);
  await lstat(dir).then(
    () => Promise.reject(new Error('still there after chmod -R and rm -rf')),
    () => undefined,
  );
}

/**
 * Removes a folder a run used. A run as root can leave a file that cannot be removed (`chattr +i`); its flags are
 * cleared where we may, and a folder still left is renamed `stuck-…` under the temp root and reported, so it never
 * makes a later request fail. Never rejects; returns the error message when the folder had to be set aside.
 */
export async function removeOrSetAside(dir: string, root = dirname(dir)): Promise<string | undefined> {
  const remove = () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
  try {
    await remove();
    return undefined;
  } catch (error) {
    if (process.platform === 'linux' && process.getuid?.() === 0) await clearImmutable(dir);
    if (process.platform !== 'win32' && (await removeDescending(dir).then(() => true, () => false))) return undefined;
    const message = `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    const aside = join(root, `${SET_ASIDE_PREFIX}${basename(dir)}-${Date.now()}`);
    await rename(dir, aside).catch(() => undefined);
    return `could not remove ${dir} (${message}); moved it to ${aside}: remove it by hand`;
  }
}

/** `removeOrSetAside` under the temp root, with a folder that had to be set aside reported through `warn`. */
export async function removeReporting(dir: string, warn: (message: string) => void): Promise<void> {
  const problem = await removeOrSetAside(dir, tempRootPath());
  if (problem) warn(problem);
}

/**
 * Removes the folders of processes that are gone (a crash, a killed window): their copies were never cleaned.
 * Returns how many were removed. A folder that cannot be removed is set aside and reported through `warn`.
 */
export async function sweepOrphans(root = tempRootPath(), warn: (message: string) => void = () => undefined): Promise<number> {
  let entries: string[];
  try {
    entries = await readdir(root);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    const dir = join(root, name);
    if (name.startsWith(SET_ASIDE_PREFIX)) {
      // Reported when it was set aside; one more quiet try each start.
      await rm(dir, { recursive: true, force: true }).catch(() => removeDescending(dir)).catch(() => undefined);
      continue;
    }
    let owner: OwnerRecord | undefined;
    try {
      owner = JSON.parse(await readFile(join(dir, 'owner.json'), 'utf8')) as OwnerRecord;
    } catch {
      // Without a readable owner the folder is half-made: by a crash, or by a process starting right now.
      const age = await stat(dir).then((s) => Date.now() - s.mtimeMs, () => Infinity);
      if (age < HALF_MADE_GRACE_MS) continue;
    }
    if (owner && owner.pid !== process.pid && isAlive(owner.pid)) continue;
    if (owner?.pid === process.pid) continue;
    const problem = await removeOrSetAside(dir, root);
    if (problem) warn(problem);
    else removed++;
  }
  return removed;
}

/**
 * Makes sure the temp root is a real folder of ours that only we can enter: on a shared machine another user
 * could have created it first, to read or swap the copies.
 */
async function secureRoot(root: string): Promise<void> {
  try {
    await mkdir(root, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UserError(`cannot create the temp folder ${root} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); set VERIFIED_FIX_TMPDIR to a writable folder`);
  }
  const stats = await lstat(root);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) {
    throw new UserError(`the temp folder ${root} is not a folder owned by you; remove it or set VERIFIED_FIX_TMPDIR to another folder`);
  }
  if (process.platform !== 'win32' && (stats.mode & 0o077) !== 0) await chmod(root, 0o700);
}

/** A folder under the temp root owned by this process, for one request's copies. */
export async function createRequestFolder(root = tempRootPath()): Promise<string> {
  await secureRoot(root);
  const dir = await mkdtemp(join(root, `p${process.pid}-`));
  const owner: OwnerRecord = { pid: process.pid, startedAt: new Date().toISOString() };
  await writeFile(join(dir, 'owner.json'), JSON.stringify(owner));
  return dir;
}
