// Domain errors carry a stable string code from an area's list (domain/src/registries/error-codes.ts
// composes them), so a code not in a list does not typecheck; adapters map the `kind` to their protocol
// once (REST status, JSON-RPC error, OAuth error). Tests assert codes, never messages.
import type { CodeOfKind, DomainErrorCode } from '../registries/error-codes.js';
import type { ErrorKind } from './error-kind.js';

export type { ErrorKind, ErrorCodeEntry, ErrorCodeList } from './error-kind.js';

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly kind: ErrorKind;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: DomainErrorCode, kind: ErrorKind, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.kind = kind;
    this.details = details;
  }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;

/** A domain error whose code's list allows this kind. */
export const domainError = <K extends ErrorKind>(
  code: CodeOfKind<K>,
  kind: K,
  message: string,
  details?: Record<string, unknown>,
) => new DomainError(code, kind, message, details);

export const invalid = (code: CodeOfKind<'invalid'>, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'invalid', message, details);
export const notFound = (code: CodeOfKind<'not_found'>, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'not_found', message, details);
export const forbidden = (
  code: CodeOfKind<'forbidden'>,
  message: string,
  details?: Record<string, unknown>,
) => new DomainError(code, 'forbidden', message, details);
export const conflict = (code: CodeOfKind<'conflict'>, message: string, details?: Record<string, unknown>) =>
  new DomainError(code, 'conflict', message, details);
export const unprocessable = (
  code: CodeOfKind<'unprocessable'>,
  message: string,
  details?: Record<string, unknown>,
) => new DomainError(code, 'unprocessable', message, details);
export const unauthenticated = (
  code: CodeOfKind<'unauthenticated'>,
  message: string,
  details?: Record<string, unknown>,
) => new DomainError(code, 'unauthenticated', message, details);
