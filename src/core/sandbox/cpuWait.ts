// Time a run spent waiting for a CPU: a limit derived from the baseline's run counts the time the run could run, so a
// loaded machine (other builds, the request's own parallel runs) does not turn a slow pass into a timeout.
import { seconds } from '../base/duration';
import { readFileSync, readdirSync } from 'node:fs';

/** How often the run's process tree is looked at: the limit ends within this much of where it should. */
export const CPU_WAIT_SAMPLE_MS = 1000;

/** The run-queue wait (ns) of one thread from `/proc/<pid>/task/<tid>/schedstat`: "run_ns wait_ns slices". */
export function parseSchedstat(text: string): number | undefined {
  const wait = Number(text.trim().split(/\s+/)[1]);
  return Number.isFinite(wait) ? wait : undefined;
}

/** Every thread of the process tree under `root`, as `pid/task/tid` paths below /proc (Linux; empty elsewhere). */
function treeThreads(root: number): string[] {
  const threads: string[] = [];
  const pending = [root];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const tid of readOr(() => readdirSync(`/proc/${pid}/task`), [] as string[])) {
      threads.push(`${pid}/task/${tid}`);
      for (const child of readOr(() => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8'), '').split(' ')) {
        if (/^\d+$/.test(child)) pending.push(Number(child));
      }
    }
  }
  return threads;
}

/** A /proc read, or `fallback` when the process or thread has ended meanwhile. */
function readOr<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/**
 * The time, since it started, during which the run was held up waiting for a CPU: per sampling interval, the largest
 * wait any of its threads gained (parallel workers wait at the same time, so their waits do not add up), at most the
 * interval itself. Threads that lived and ended between two samples go uncounted: the estimate errs towards the
 * wall clock, never past it.
 */
export class CpuWaitMeter {
  private readonly lastWait = new Map<string, number>();
  private lastSample = performance.now();
  private stalledNs = 0;

  constructor(private readonly root: number) {}

  get stalledMs(): number {
    return this.stalledNs / 1e6;
  }

  /**
   * Reads the tree at once (synchronous reads, a few microseconds each: a starved event loop must not spread one
   * sample over seconds), and returns when it was taken.
   */
  sample(): number {
    const now = performance.now();
    let gained = 0;
    for (const thread of treeThreads(this.root)) {
      const wait = parseSchedstat(readOr(() => readFileSync(`/proc/${thread}/schedstat`, 'utf8'), ''));
      if (wait === undefined) continue;
      gained = Math.max(gained, wait - (this.lastWait.get(thread) ?? 0));
      this.lastWait.set(thread, wait);
    }
    this.stalledNs += Math.min(gained, (now - this.lastSample) * 1e6);
    this.lastSample = now;
    return now;
  }
}

/**
 * Calls `expire` once the run has used `limitMs` of time it could run, or `capMs` of wall time, whichever comes
 * first; without a cap above the limit (or where there is no /proc), a plain wall-clock timer. Returns the disarm.
 */
export function armDeadline(limitMs: number, capMs: number | undefined, pid: number | undefined, expire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let disarmed = false;
  if (capMs === undefined || capMs <= limitMs || pid === undefined || process.platform !== 'linux') {
    timer = setTimeout(expire, limitMs);
    return () => clearTimeout(timer);
  }
  const started = performance.now();
  const meter = new CpuWaitMeter(pid);
  const tick = () => {
    if (disarmed) return;
    const elapsed = meter.sample() - started;
    const counted = elapsed - meter.stalledMs;
    if (counted >= limitMs || elapsed >= capMs) return expire();
    timer = setTimeout(tick, Math.max(50, Math.min(CPU_WAIT_SAMPLE_MS, limitMs - counted, capMs - elapsed)));
  };
  timer = setTimeout(tick, Math.min(CPU_WAIT_SAMPLE_MS, limitMs));
  return () => {
    disarmed = true;
    clearTimeout(timer);
  };
}

/** What a timeout's reason adds when the run's wall time passed its limit by the time it waited for a CPU. */
export function waitingNote(limitMs: number, wallMs: number): string {
  const waited = wallMs - limitMs;
  return waited >= CPU_WAIT_SAMPLE_MS ? `, not counting ${seconds(waited)} spent waiting for a CPU` : '';
}
