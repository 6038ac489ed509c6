// Waiting inside model requests: backoff and Retry-After between retries, abortable sleeps, deadlines.

/** Retries are worth it only for these: rate limits, server errors and timeouts that may clear up. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an
 * HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (0-based): the server's wish when it gave one, else base·2^attempt with
 * ±25% jitter (so parallel requests that failed together do not retry together), never more than `capMs`.
 */
export function backoffMs(attempt: number, options: { baseMs: number; capMs: number; serverMs?: number; random?: () => number }): number {
  if (options.serverMs !== undefined) return Math.min(options.serverMs, options.capMs);
  const jitter = 0.75 + 0.5 * (options.random ?? Math.random)();
  return Math.min(options.baseMs * 2 ** attempt * jitter, options.capMs);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A signal that aborts after `ms` with a TimeoutError. Unlike `AbortSignal.timeout` its timer keeps the process
 * alive, so a request waiting on nothing but the timeout still ends; call `clear()` when the request is done.
 */
export function deadline(ms: number): { readonly signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** The promise's value, or `undefined` as soon as `signal` aborts or the promise rejects (then the wait is moot). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (value: T | undefined) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    promise.then(settle, () => settle(undefined));
  });
}
