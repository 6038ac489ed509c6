// Fans single-sample requests out to a bounded number of parallel workers and yields results as they arrive.
import type { ProviderSample } from '../contract/provider';

/**
 * Calls `produce` `total` times from at most `concurrency` workers and yields each sample as soon as it is
 * ready (arrival order, not call order). A thrown error (a UserError for a wrong key, say) stops every worker
 * and is rethrown to the consumer. Abort of `signal`, or the consumer ending the iteration early, aborts the
 * requests in flight through the signal passed to `produce`.
 */
export async function* parallelSamples(
  total: number,
  concurrency: number,
  signal: AbortSignal,
  produce: (signal: AbortSignal) => Promise<ProviderSample>,
): AsyncGenerator<ProviderSample> {
  if (total <= 0) return;
  const controller = new AbortController();
  const inner = AbortSignal.any([signal, controller.signal]);
  const ready: ProviderSample[] = [];
  let wake: (() => void) | undefined;
  let failure: { error: unknown } | undefined;
  let started = 0;
  let running = 0;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  inner.addEventListener('abort', notify, { once: true });

  const worker = async () => {
    while (started < total && !inner.aborted) {
      started++;
      try {
        const sample = await produce(inner);
        if (!inner.aborted) ready.push(sample);
      } catch (error) {
        if (!inner.aborted) failure = { error };
        controller.abort();
      }
      notify();
    }
  };

  running = Math.max(1, Math.min(concurrency, total));
  for (let i = 0, n = running; i < n; i++) {
    void worker().finally(() => {
      running--;
      notify();
    });
  }
  try {
    while (true) {
      if (ready.length > 0) {
        yield ready.shift()!;
        continue;
      }
      if (failure) throw failure.error;
      if (running === 0 || inner.aborted) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    controller.abort();
  }
}
