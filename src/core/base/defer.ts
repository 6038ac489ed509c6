// A promise together with the function that settles it, for a value one phase makes and others wait for (vitest's createDefer).

/** A promise and its `resolve`, usable before the value exists. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

/** A new pending promise with its `resolve` at hand. */
export function defer<T>(): Deferred<T> {
  const settle: { resolve?: (value: T) => void } = {};
  // The executor runs synchronously, so `settle.resolve` is set by the time `new Promise` returns.
  const promise = new Promise<T>((resolve) => (settle.resolve = resolve));
  return { promise, resolve: settle.resolve as (value: T) => void };
}
