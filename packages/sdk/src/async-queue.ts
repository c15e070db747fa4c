/** Turns pushed values (from an observable's callbacks) into an async iterable, ending on close or error. */
export function asyncQueue<T>(onReturn: () => void): {
  push(value: T): void;
  fail(error: unknown): void;
  close(): void;
  iterable: AsyncIterableIterator<T>;
} {
  const values: T[] = [];
  let waiting: ((r: IteratorResult<T>) => void) | null = null;
  let failWaiting: ((e: unknown) => void) | null = null;
  let done = false;
  let error: unknown = null;
  const iterable: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (values.length > 0) return Promise.resolve({ value: values.shift()!, done: false });
      if (error) return Promise.reject(error);
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => {
        waiting = resolve;
        failWaiting = reject;
      });
    },
    return() {
      done = true;
      onReturn();
      return Promise.resolve({ value: undefined, done: true });
    },
  };
  return {
    push(value) {
      if (waiting) {
        const w = waiting;
        waiting = failWaiting = null;
        w({ value, done: false });
      } else values.push(value);
    },
    fail(e) {
      error = e;
      if (failWaiting) {
        const f = failWaiting;
        waiting = failWaiting = null;
        f(e);
      }
    },
    close() {
      done = true;
      if (waiting) {
        const w = waiting;
        waiting = failWaiting = null;
        w({ value: undefined, done: true });
      }
    },
    iterable,
  };
}
