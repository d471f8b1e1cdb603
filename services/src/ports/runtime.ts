/** Time arrives from outside so the domain stays pure and tests can move it. */
export interface Clock {
  now(): Date;
}

export interface Ids {
  /** Time-ordered UUID (v7), for events and provenance entries. */
  eventId(): string;
  /** Random UUID (v4), for agents, accounts, sessions and sites. */
  entityId(): string;
  /** 128-bit random base64url, the envelope nonce. */
  nonce(): string;
  /** A random secret of `bytes` bytes, base64url. */
  secret(bytes: number): string;
  /** Hex SHA-256, for storing digests of secrets and naming claim streams. */
  sha256(value: string): string;
}

export interface PasswordHasher {
  /** Runs off the event loop. */
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** Burns the same time as a real verify, so unknown accounts are not told apart by timing. */
  verifyDummy(password: string): Promise<void>;
}

/** Counts failures per key within a window; used to throttle sign-in. */
export interface Throttle {
  /** Seconds to wait before another attempt is allowed, or 0. */
  retryAfter(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/**
 * RFC 8628 poll pacing, shared by every process of an instance (a throttle, not a fact: not in the log).
 * Records a poll of `key` at `at`; `tooFast` when it came sooner than the key's interval. The first poll
 * of a key starts it at `intervalSeconds` (the advertised one). A run of too-fast polls grows the
 * interval by 5 s once (not per poll), and each polite poll shrinks it by 5 s, never below
 * `intervalSeconds`, so a poller that restarted from the advertised interval and adds 5 s per slow_down
 * (§3.5) catches up instead of chasing an interval that grows as fast as its own.
 */
export interface PollPacer {
  poll(
    key: string,
    at: Date,
    intervalSeconds: number,
  ): Promise<{ tooFast: boolean; intervalSeconds: number }>;
}

/** The device flow's throttles: poll pacing, and wrong user codes per account and per address. */
export interface DeviceFlowThrottles {
  polls: PollPacer;
  wrongCodePerAccount: Throttle;
  wrongCodePerAddress: Throttle;
}
