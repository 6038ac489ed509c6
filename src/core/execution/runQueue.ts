// The request's parallel slots with priorities: a run that can verify a candidate starts before other candidates' first runs.

/**
 * How close a run is to a verified fix. Runs of a higher priority start first; within one priority, in arrival
 * order. Without this, a candidate that passed its failing tests queued its full run behind every other candidate's
 * first stage, and a total timeout could end a request with the right fix one run short of verified.
 */
export const RunPriority = {
  /** A candidate's first run (its failing tests, or the whole command unstaged), the baseline, variants. */
  first: 0,
  /** All the failing tests of a candidate that passed those of one file (the sample that came first). */
  failingTests: 1,
  /** The full run of a candidate that passed its failing tests. */
  full: 2,
  /** A confirmation or re-check of a candidate that passed a full run: one step from verified. */
  confirm: 3,
} as const;

/**
 * Takes one of the request's parallel slots for one run, at `priority` (RunPriority.first when left out); `width`
 * slots for a run that keeps that many cores busy itself (a runner told to start that many test files at once).
 * `heldUntil`: the run gives its slot back when that settles, if it runs on past it (a run at the lowest CPU priority,
 * which from then on takes only what the others leave).
 */
export type Slot = <T>(run: () => Promise<T>, priority?: number, width?: number, heldUntil?: Promise<unknown>) => Promise<T>;

interface Waiting {
  readonly priority: number;
  readonly width: number;
  readonly start: () => void;
}

/**
 * At most `concurrency` slots held at once; waiting runs start by priority, then arrival. A wide run at the head
 * waits until its slots are free and runs behind it wait too, so that a stream of narrow runs cannot starve it.
 */
export class RunQueue {
  private active = 0;
  private readonly waiting: Waiting[] = [];
  private readonly listeners: Array<(priority: number) => void> = [];

  constructor(private readonly concurrency: number) {}

  /** The slot function to hand to the phases (bound, so it can be passed around as is). */
  readonly slot: Slot = async <T>(run: () => Promise<T>, priority: number = RunPriority.first, width = 1, heldUntil?: Promise<unknown>): Promise<T> => {
    const held = Math.max(1, Math.min(width, this.concurrency));
    if (this.waiting.length > 0 || this.active + held > this.concurrency) {
      await new Promise<void>((start) => {
        // Behind every waiting run of the same or a higher priority, ahead of the lower ones.
        const at = this.waiting.findIndex((w) => w.priority < priority);
        this.waiting.splice(at < 0 ? this.waiting.length : at, 0, { priority, width: held, start });
        // A narrow run of a higher priority can pass a wide one waiting for slots that are free already.
        this.startWaiting();
      });
    } else this.active += held;
    for (const listener of this.listeners) listener(priority);
    let released = false;
    // After the caller's continuation: a candidate that just passed its failing tests queues its full run in the
    // same tick, and the freed slot must see it rather than go to the next first run already waiting.
    const release = () =>
      setImmediate(() => {
        if (released) return;
        released = true;
        this.release(held);
      });
    heldUntil?.then(release, release);
    try {
      return await run();
    } finally {
      release();
    }
  };

  /** Calls `listener` with each run's priority as it starts: tests watch the order through it. */
  onStart(listener: (priority: number) => void): void {
    this.listeners.push(listener);
  }

  /** Whether a run of one slot would start at once: a slot is free and no run waits. */
  readonly idle = (): boolean => this.waiting.length === 0 && this.active < this.concurrency;

  /** Runs still waiting for a slot. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Drops every waiting run: they never start (and their promises never settle), as p-limit's clearQueue. */
  clearQueue(): void {
    this.waiting.length = 0;
  }

  private release(held: number): void {
    this.active -= held;
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.active + this.waiting[0].width <= this.concurrency) {
      const next = this.waiting.shift() as Waiting;
      this.active += next.width;
      next.start();
    }
  }
}
