// Every pathname socket listening on this machine, read from /proc/net/unix, so namespaced runs can mask each one:
// a name list misses a listener under /var/tmp or a home folder (Colima's docker.sock is root on the host).
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';

/** More masks than this are not made (each is a mount); the rest stay reachable and the log says how many. */
export const MAX_SOCKET_MASKS = 512;

/**
 * The socket paths in /proc/net/unix's text (its last column): abstract names (`@…`) are per network namespace, so a
 * run with a network namespace of its own cannot reach them, and relative names cannot be found again.
 */
export function parseUnixSockets(text: string): string[] {
  const paths = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // Num RefCount Protocol Flags Type St Inode Path: a path with a space in it keeps its rest.
    if (fields.length < 8) continue;
    const path = fields.slice(7).join(' ');
    if (isAbsolute(path)) paths.add(path);
  }
  return [...paths];
}

const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder === '/' ? '' : folder}/`);

function realSocket(path: string): string | undefined {
  try {
    const real = join(realpathSync(dirname(path)), basename(path));
    return lstatSync(real).isSocket() ? real : undefined;
  } catch {
    return undefined; // removed since it was bound, or not reachable by us: nothing to mask
  }
}

/** What masking the listening sockets gives a run: the paths to cover, and how many were left out over the cap. */
export interface SocketMasks {
  readonly paths: readonly string[];
  readonly leftOut: number;
}

/**
 * The listening sockets a run must not reach: every one outside `keep` (the run's own tree and the folders it writes)
 * and `covered` (folders already replaced by empty ones: /tmp, /run, the temp root).
 */
export function socketsToMask(keep: readonly string[], covered: readonly string[], listing = readListing()): SocketMasks {
  const found = new Set<string>();
  for (const listed of parseUnixSockets(listing)) {
    const path = realSocket(listed);
    if (path && !keep.some((folder) => inside(path, folder)) && !covered.some((folder) => inside(path, folder))) found.add(path);
  }
  const all = [...found].sort();
  return { paths: all.slice(0, MAX_SOCKET_MASKS), leftOut: Math.max(0, all.length - MAX_SOCKET_MASKS) };
}

function readListing(): string {
  try {
    return readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return ''; // not Linux, or /proc not mounted: the backends that mask need Linux namespaces anyway
  }
}
