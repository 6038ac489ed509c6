// The programs the engine itself starts (sandbox tools, git, container engines), found once, by absolute path, in
// absolute PATH entries only: a relative entry such as `./node_modules/.bin` would let the repository supply `bwrap`.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

const found = new Map<string, string>();

/** Where a program's absolute path is looked up when PATH has no absolute entry holding it. */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The absolute path of `name` from the absolute entries of `PATH` (then the system folders), resolved once per process.
 * A name not found anywhere comes back under `/usr/bin`, so starting it fails plainly instead of being searched for.
 */
export function toolPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  if (isAbsolute(name)) return name;
  const known = found.get(name);
  if (known) return known;
  const dirs = [...(env.PATH ?? '').split(delimiter).filter((dir) => isAbsolute(dir)), ...SYSTEM_DIRS];
  const path = dirs.map((dir) => join(dir, name)).find(executable) ?? join('/usr/bin', name);
  found.set(name, path);
  return path;
}

/** PATH for the engine's own setup shells: system folders only (the run's PATH comes back for the test command). */
export const SYSTEM_PATH = SYSTEM_DIRS.join(':');
