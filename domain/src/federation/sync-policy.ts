// When sync tries a peer again, and when a pull may take events older than the replay window
// (docs/federation.md#sync-push-pull-cursors). Pure: the caller brings the clock and the randomness.
import { EVENT_WINDOW_SECONDS } from './import-rules.js';

export type SyncDirection = 'push' | 'pull';
export const SYNC_DIRECTIONS: readonly SyncDirection[] = ['push', 'pull'];

/** Backoff never waits longer than a week: a peer back after an outage is found within a week anyway. */
export const SYNC_BACKOFF_CAP_MS = 7 * 24 * 60 * 60 * 1000;

/** At most this many events, and bytes of event text, in one push batch (the peer's import limits). */
export const SYNC_BATCH_MAX_EVENTS = 500;
export const SYNC_BATCH_MAX_BYTES = 2 * 1024 * 1024 - 64 * 1024;

interface BackoffPolicy {
  /** The first retry waits about this long. */
  baseMs: number;
  capMs?: number;
}

/**
 * How long to wait before attempt `failures + 1`, after `failures` consecutive failures (≥ 1):
 * exponential, capped, with "equal jitter" (half fixed, half random) so peers that failed together do
 * not retry together, while a retry never comes sooner than half the nominal delay.
 */
export function retryDelayMs(failures: number, random: number, policy: BackoffPolicy): number {
  const cap = Math.min(policy.capMs ?? SYNC_BACKOFF_CAP_MS, SYNC_BACKOFF_CAP_MS);
  const exponent = Math.min(Math.max(failures, 1) - 1, 40);
  const nominal = Math.min(cap, policy.baseMs * 2 ** exponent);
  const r = Math.min(Math.max(random, 0), 1);
  return Math.round(nominal / 2 + (nominal / 2) * r);
}

/**
 * A locally initiated pull may replay events older than the replay window when this instance has not
 * heard from the peer for longer than that window (more than 7 days of downtime), or has never
 * pulled from it (first contact: all of its history is new to us). Push and import stay strict.
 */
export function pullMayReplayHistory(lastSuccessAt: Date | null, now: Date): boolean {
  if (!lastSuccessAt) return true;
  return now.getTime() - lastSuccessAt.getTime() > EVENT_WINDOW_SECONDS * 1000;
}
