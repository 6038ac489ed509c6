// A run at the lowest CPU priority: the head start beside the baseline, which must take only what other runs leave.
import { shellQuote } from '../testResults/shell';

/** `nice`'s lowest priority: against a run at the default one it gets about 1.5% of a contended core. */
const LOWEST_PRIORITY = 19;

/**
 * A command at the lowest CPU priority. `nice` alone does not do it: every run starts a session of its own (the
 * sandbox's `--new-session`, the detached spawn), and where the kernel groups sessions for scheduling (autogroup,
 * on by default in many distributions) CPU is shared between sessions first and nice counts only inside one, so a
 * nice 19 run still took half of a contended machine from the run beside it. The session's own nice value (its
 * autogroup's, which a process may always raise) puts the whole run behind the others. Without privileges the
 * kernel takes one such change per 100 ms across the machine (another request's head start may have just made
 * one), so a refused write is tried again, for half a second at most; where the kernel has no autogroups every
 * try fails silently and `nice` does the work.
 */
export function atLowestPriority(shellCommand: string): string {
  const session = `for try in 1 2 3 4 5 6 7 8 9 10; do { echo ${LOWEST_PRIORITY} > /proc/self/autogroup; } 2>/dev/null && break; [ -e /proc/self/autogroup ] || break; sleep 0.05; done`;
  return `${session}; exec nice -n ${LOWEST_PRIORITY} /bin/sh -c ${shellQuote(shellCommand)}`;
}
