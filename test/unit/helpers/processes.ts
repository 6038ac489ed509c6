// Finds live processes by a marker in their command line (PID namespaces renumber PIDs, markers survive).
import { readdirSync, readFileSync } from 'node:fs';

/** PIDs of live (non-zombie) processes whose command line contains `marker`. */
export function processesWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmdline.includes(marker)) continue;
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /, '')[0];
      if (state !== 'Z') pids.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Polls until no process carries the marker or the deadline passes; returns the survivors. */
export async function waitForNoSurvivors(marker: string, withinMs = 2000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  let alive = processesWithMarker(marker);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = processesWithMarker(marker);
  }
  return alive;
}

/** A marker that is a valid fractional-seconds suffix for `sleep 300.<marker>`. */
export function newMarker(): string {
  return String(100000 + Math.floor(Math.random() * 899999));
}

/** Kills leftovers so one failing test does not poison the next. */
export function killMarked(marker: string): void {
  for (const pid of processesWithMarker(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
