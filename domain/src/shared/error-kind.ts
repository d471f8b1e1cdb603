// What kind of failure an error is; adapters map the kind to their protocol once (REST status,
// JSON-RPC error, OAuth error).
export type ErrorKind =
  | 'invalid' // the input is malformed or breaks a rule
  | 'unauthenticated' // no usable principal
  | 'forbidden' // the principal may not do this (scope, enabledFor, ownership of a visible thing)
  | 'not_found' // absent, or not visible to this principal
  | 'conflict' // a concurrent change or a uniqueness clash
  | 'rate_limited'
  | 'too_large'
  | 'unprocessable' // well-formed, but cannot be processed as asked (an idempotency key reused for another request)
  | 'unavailable'; // a dependency is down; a retry can help

/**
 * One error code of an area's list. `kinds` are the kinds a code may be raised with (the error helpers
 * accept a code only with one of them); empty for a code that is only reported, never thrown (a line of
 * `log verify`, a per-event import result). `description` is what docs/api.md says of it; `status`
 * replaces the status the docs derive from `kinds` where that would mislead.
 */
export interface ErrorCodeEntry {
  readonly kinds: readonly ErrorKind[];
  readonly description: string;
  readonly status?: string;
}

/** An area's codes: `area.snake_case` → its entry. */
export type ErrorCodeList = Readonly<Record<string, ErrorCodeEntry>>;
