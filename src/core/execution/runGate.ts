// A readers-writer gate for test runs: any number run side by side, or one runs alone.

/**
 * `shared` work runs alongside other shared work; `alone` work waits until nothing else runs and keeps new work
 * out meanwhile. A waiting `alone` blocks later `shared` arrivals, so it cannot be starved by a steady stream.
 */
export class RunGate {
  private active = 0;
  private exclusive = false;
  private readonly queue: Array<{ alone: boolean; start: () => void }> = [];

  shared<T>(work: () => Promise<T>): Promise<T> {
    return this.enter(false, work);
  }

  alone<T>(work: () => Promise<T>): Promise<T> {
    return this.enter(true, work);
  }

  private async enter<T>(alone: boolean, work: () => Promise<T>): Promise<T> {
    if (this.queue.length > 0 || !this.canStart(alone)) {
      await new Promise<void>((start) => this.queue.push({ alone, start }));
    } else {
      this.begin(alone);
    }
    try {
      return await work();
    } finally {
      this.active--;
      if (alone) this.exclusive = false;
      this.wake();
    }
  }

  private canStart(alone: boolean): boolean {
    return alone ? this.active === 0 : !this.exclusive;
  }

  private begin(alone: boolean): void {
    this.active++;
    if (alone) this.exclusive = true;
  }

  /** Starts waiting work in arrival order while it may start. */
  private wake(): void {
    while (this.queue.length > 0 && this.canStart(this.queue[0].alone)) {
      const next = this.queue.shift() as { alone: boolean; start: () => void };
      this.begin(next.alone);
      next.start();
    }
  }
}
