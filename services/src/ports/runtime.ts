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
