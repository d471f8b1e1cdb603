// Domain errors carry a stable string code; adapters map the `kind` to their protocol once
// (REST status, JSON-RPC error, OAuth error). Tests assert codes, never messages.
export type ErrorKind =
  | 'invalid' // the input is malformed or breaks a rule
  | 'unauthenticated' // no usable principal
  | 'forbidden' // the principal may not do this (scope, enabledFor, ownership of a visible thing)
  | 'not_found' // absent, or not visible to this principal
  | 'conflict' // a concurrent change or a uniqueness clash
  | 'rate_limited'
  | 'too_large'
  | 'unavailable'; // a dependency is down; a retry can help

export class DomainError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: string, kind: ErrorKind, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.kind = kind;
    this.details = details;
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;

export const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'invalid', message, details);
export const notFound = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'not_found', message, details);
export const forbidden = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'forbidden', message, details);
export const conflict = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'conflict', message, details);
export const unauthenticated = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'unauthenticated', message, details);
