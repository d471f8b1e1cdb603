// Waiting for what a running instance does in the background (sync, workers, webhooks), bounded.

/**
 * Polls `probe` every 100 ms until it returns something truthy, or fails after `timeoutMs`. A probe that
 * throws is tried again (what it reads may not be there yet); the last error is in the failure, and so
 * is what `describeState` says of the system then, when given.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  describeState?: () => Promise<string>,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until)
      throw new Error(
        `timed out waiting for ${what}${last ? `: ${String(last)}` : ''}${describeState ? `; ${await describeState()}` : ''}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `eventually` with another default bound, for a suite whose waits are all longer. */
export function eventuallyWithin(defaultTimeoutMs: number) {
  return <T>(
    what: string,
    probe: () => Promise<T | undefined | false>,
    timeoutMs = defaultTimeoutMs,
    describeState?: () => Promise<string>,
  ) => eventually(what, probe, timeoutMs, describeState);
}
