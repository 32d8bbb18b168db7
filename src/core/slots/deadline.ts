/**
 * The one deadline helper: `work` settles within `ms`, or the promise rejects with
 * `onTimeout()` (and the timer never outlives the race). A synchronous loop cannot be interrupted
 * from the same thread; that is why plugins run in their own workers and processes, whose owners
 * pass their kill to `onTimeout`.
 */
export async function withDeadline<T>(work: Promise<T> | (() => T | Promise<T>), ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    const running = typeof work === 'function' ? Promise.resolve().then(work) : work;
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
    expired.catch(() => undefined);
  }
}
