// Head starts: candidates' full runs started while the baseline runs, on a slot it leaves idle (Verifier.headStart),
// each dropped when it runs too long or its candidate fails its failing tests.
import type { TestEvidence, Verdict } from '../contract/fixRequest';
import type { Reference } from './reference';
import { runLimit } from './timeLimits';

/** A full run's verdict and per-test evidence. */
export interface FullRun {
  readonly verdict: Verdict;
  readonly tests?: TestEvidence;
}

/** A candidate's head start: its run, what drops it (the run then ends as cancelled), and whether it has ended. */
export interface HeadStart {
  readonly run: Promise<FullRun>;
  readonly drop: () => void;
  readonly ended: () => boolean;
}

/** One request's head starts, by candidate; each is taken once, by its candidate's verification. */
export class HeadStarts {
  private readonly started = new Map<number, HeadStart>();

  constructor(private readonly reference: Promise<Reference>, private readonly testTimeoutMs: number | undefined) {}

  /**
   * Starts `run` as candidate `index`'s head start, handing it what drops it. Once the baseline is in, it is dropped
   * where it runs past the limit a full run of its own gets, from its own start: it holds no slot by then (it gave
   * its slot back, and takes only what the other runs leave), so ending it sooner would free nothing and throw away
   * a right fix's run that stage 1 starved. Not where the baseline stopped at its first failure: a full run takes
   * longer, and only the test timeout ends it.
   */
  start(index: number, run: (drop: AbortSignal) => Promise<FullRun>): void {
    const controller = new AbortController();
    const startedAt = performance.now();
    const running = run(controller.signal);
    let ended = false;
    void running.then(() => (ended = true), () => (ended = true));
    this.started.set(index, { run: running, drop: () => controller.abort(), ended: () => ended });
    void this.reference.then(({ limit }) => {
      // A baseline that stopped at its first failure (--bail) took less than a full run does: the test timeout bounds it.
      if (!limit || limit.failingTestsOnly) return;
      const { ms } = runLimit(limit, this.testTimeoutMs);
      if (ms === undefined) return;
      const timer = setTimeout(() => controller.abort(), Math.max(0, ms - (performance.now() - startedAt)));
      const clear = () => clearTimeout(timer);
      void running.then(clear, clear);
    });
  }

  /** Candidate `index`'s head start, once; undefined where it has none. */
  take(index: number): HeadStart | undefined {
    const head = this.started.get(index);
    this.started.delete(index);
    return head;
  }
}
