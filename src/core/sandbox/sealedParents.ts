// Shell lines for the unshare sandbox that leave a run no writable folder outside its own tree: every mount read-only,
// a private /tmp and /var/tmp, and the temp root an empty read-only folder holding only the run's own tree.
import { shellQuote as quote } from '../testResults/shell';
import { privateTempFolders } from '../security/hiddenPaths';

/** What the run keeps writable (its tree, its report folders) and what it must still see under a covered folder. */
export interface SealSpec {
  readonly copyDir: string;
  readonly writablePaths: readonly string[];
  readonly readOnlyPaths: readonly string[];
  /** Folders replaced by an empty read-only one (the temp root): a planted conftest.py or .mocharc there is impossible. */
  readonly hiddenFolders: readonly string[];
  /** Writable binds inside the tree's read-only ones (the baseline's bytecode folders): carried by the tree's own bind. */
  readonly writableInCopy?: readonly string[];
}

const under = (path: string, folder: string) => path.startsWith(`${folder === '/' ? '' : folder}/`);

/**
 * Every mount of the namespace made read-only (keeping its nosuid/nodev/noexec flags), except the run's own binds and
 * the kernel's /proc and /dev. Without it a run as uid 0 with no capabilities still owns and writes most of the system:
 * `/usr/lib/python3/dist-packages`, `/conftest.py`, the folders above every copy.
 */
function readOnlyEverywhere(writable: readonly string[]): string[] {
  const skip = writable.map((path) => `${quote(path)}`).join('|');
  return [
    'while read -r _ _ _ _ mp opts _; do',
    `  case $mp in /proc|/proc/*|/dev|/dev/*|${skip}) continue;; *\\\\*) continue;; esac`,
    "  flags=$(echo \"$opts\" | sed 's/^r[ow],\\{0,1\\}//')",
    '  mount -o "remount,bind,ro${flags:+,$flags}" "$mp" 2>/dev/null',
    'done < /proc/self/mountinfo',
  ];
}

/**
 * An empty tmpfs over `folder` with `keeps` (the paths under it the run needs) bound back in from a descriptor opened
 * on the folder before it was covered; `readOnly`: the tmpfs itself then read-only, so nothing can be planted beside them.
 */
function cover(folder: string, keeps: readonly string[], readOnly: boolean, fd: number, fail: (what: string) => string): string[] {
  const rel = (path: string) => path.slice(folder === '/' ? 1 : folder.length + 1);
  const lines = [
    // Under a folder covered before it (the temp root in /tmp) with none of the run's paths inside, it is gone: made
    // again on that private tmpfs, so it is still an empty read-only folder (the mounts of the host are read-only here).
    `mkdir -p ${quote(folder)} && exec ${fd}<${quote(folder)} || ${fail(`cannot open ${folder}`)}`,
    `mount -t tmpfs -o ${readOnly ? 'size=1m,mode=0755' : 'mode=1777'} verified-fix ${quote(folder)} || ${fail(`cannot cover ${folder}`)}`,
  ];
  for (const keep of keeps) {
    lines.push(`mkdir -p ${quote(keep)} && mount -c --rbind ${quote(`/proc/self/fd/${fd}/${rel(keep)}`)} ${quote(keep)} || ${fail(`cannot keep ${keep}`)}`);
  }
  if (readOnly) lines.push(`mount -o remount,bind,ro ${quote(folder)} || ${fail(`cannot make ${folder} read-only`)}`);
  lines.push(`exec ${fd}<&-`);
  return lines;
}

/** The lines, run after every other mount of the setup and before capabilities are dropped. */
export function sealParents(spec: SealSpec, fail: (what: string) => string): string[] {
  const writable = [spec.copyDir, ...spec.writablePaths];
  // Own mounts, so the read-only pass below can leave exactly them writable; recursive, so the mounts already inside
  // them (the tests' read-only binds, the covers over `.git` and `.env`) stay on top of the run's tree.
  const lines = writable.map((path) => `mount --rbind ${quote(path)} ${quote(path)} || ${fail(`cannot bind ${path}`)}`);
  lines.push(...readOnlyEverywhere([...writable, ...(spec.writableInCopy ?? [])]));
  const needed = [...writable, ...spec.readOnlyPaths];
  const covers: Array<[string, boolean]> = [...privateTempFolders().map((folder): [string, boolean] => [folder, false]), ...spec.hiddenFolders.map((folder): [string, boolean] => [folder, true])];
  covers.forEach(([folder, readOnly], i) => {
    // Top-most only: a keep inside another comes along with it (--rbind).
    const inside = needed.filter((path) => under(path, folder));
    const keeps = [...new Set(inside.filter((path) => !inside.some((other) => other !== path && under(path, other))))];
    lines.push(...cover(folder, keeps, readOnly, 3 + (i % 6), fail));
  });
  return lines;
}
