// Which of its keys the instance signs with, as its log says (rm_instance_keys): the key no rotation has
// retired. Every process reads it at start and again every KEY_REFRESH_MS, so a rotation made by any
// process (the CLI) reaches all of them; until then they sign with the previous key, which stays valid
// through the rotation's overlap (docs/operations.md#rotating-the-signing-key).
import { DomainError } from '@tributary/domain';
import type { Clock } from '@tributary/services';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { HeldKey, KeyRing } from './key-ring.js';

/** How often a running process looks for a rotation. */
export const KEY_REFRESH_MS = 1000;

interface KeyRow {
  key_id: string;
  valid_until: Date | null;
  revoked_after: Date | null;
}

export interface KeyState {
  /** Reads the log's keys and switches the ring to the current one; false if it is not held. */
  refresh(): Promise<boolean>;
  /** A previous key still in its overlap (not revoked), held here: the fallback for request signing. */
  previous(): HeldKey | undefined;
  /** The log's current key id (null before the instance exists). */
  currentKeyId(): string | null;
}

export function createKeyState(pool: Pool, ring: KeyRing, clock: Clock): KeyState {
  let rows: KeyRow[] = [];
  return {
    async refresh() {
      ({ rows } = await pool.query<KeyRow>(
        `SELECT k.key_id, k.valid_until, k.revoked_after FROM rm_instance_keys k
         JOIN rm_instance i ON i.instance_id = k.origin`,
      ));
      const current = rows.find((r) => r.valid_until === null);
      return current === undefined || current.key_id === ring.current().keyId || ring.use(current.key_id);
    },
    currentKeyId: () => rows.find((r) => r.valid_until === null)?.key_id ?? null,
    previous() {
      const now = clock.now().getTime();
      const open = rows
        .filter(
          (r) =>
            r.valid_until !== null &&
            r.valid_until.getTime() > now &&
            (r.revoked_after === null || r.revoked_after.getTime() > now),
        )
        .sort((a, b) => b.valid_until!.getTime() - a.valid_until!.getTime());
      for (const r of open) {
        const k = ring.held(r.key_id);
        if (k && k.keyId !== ring.current().keyId) return k;
      }
      return undefined;
    },
  };
}

/** At start: the log's current key must be one this process holds. */
export async function adoptLogKey(state: KeyState, ring: KeyRing): Promise<void> {
  if (!(await state.refresh()))
    throw new DomainError(
      'instance.key_mismatch',
      'invalid',
      `the signing key ${state.currentKeyId()} that this instance's log names is not in ${ring.dir}; restore the key files that belong to this database`,
    );
}

/** Follows rotations while the process runs. */
export function watchCurrentKey(state: KeyState, ring: KeyRing, logger: Logger): { stop(): void } {
  let running = false;
  let missing: string | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    const before = ring.current().keyId;
    state
      .refresh()
      .then((ok) => {
        const now = ring.current().keyId;
        if (now !== before)
          logger.info({ keyId: now, previousKeyId: before }, 'now signing with the rotated key');
        if (!ok && state.currentKeyId() !== missing) {
          missing = state.currentKeyId();
          logger.error(
            { keyId: missing, dir: ring.dir },
            'the log names a signing key this process does not hold; it keeps signing with the previous one',
          );
        }
      })
      .catch(() => undefined) // the database is away: the next tick tries again
      .finally(() => {
        running = false;
      });
  }, KEY_REFRESH_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Signs requests to peers with the current key, and offers the previous one while it overlaps. */
export function ringRequestSigner(ring: KeyRing, state: KeyState) {
  return {
    get keyId() {
      return ring.current().keyId;
    },
    sign: (data: Buffer) => ring.current().sign(data),
    previous: () => {
      const k = state.previous();
      return k && { keyId: k.keyId, sign: (data: Buffer) => k.sign(data) };
    },
  };
}
