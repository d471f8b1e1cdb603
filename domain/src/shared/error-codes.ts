// Codes no single area owns: validation, authentication, the log and envelopes, failures that are not
// domain errors, and the request and outbound-call codes the adapters raise as domain errors (so they
// pass through the same error handlers). Protocol-only codes the adapters answer directly are in
// adapters/src/http/error-codes.ts.
import type { ErrorCodeList } from './error-kind.js';

/** Said of a code only `tributary log verify` reports. */
const VERIFY_LOG = '— (`log verify`)';

export const SHARED_ERROR_CODES = {
  'input.invalid': {
    kinds: ['invalid'],
    description:
      "the body does not match the operation's schema (unknown fields included); `issues` lists why",
  },
  'auth.required': { kinds: ['unauthenticated'], description: 'no session or credential' },
  'auth.invalid_credentials': {
    kinds: ['unauthenticated'],
    description: 'wrong identifier or password (the same for both)',
  },
  'auth.throttled': {
    kinds: ['rate_limited'],
    description:
      'too many failed sign-ins per identifier or account, or re-given passwords; `retryAfter` says how long',
  },
  'auth.session_required': {
    kinds: ['forbidden'],
    description: 'an operation only a signed-in session may run',
  },
  'auth.controller_only': { kinds: ['forbidden'], description: 'operator-only operation' },
  'auth.insufficient_scope': {
    kinds: ['forbidden'],
    description: 'the token lacks a scope the operation needs',
  },
  'auth.remote_viewer_not_allowed': {
    kinds: ['forbidden'],
    description:
      'a remote-viewer credential (`svc_remote_viewer`) may run only the reads marked for remote viewers',
  },
  'auth.tool_not_enabled': {
    kinds: ['forbidden'],
    description: 'the tool is not enabled for this credential',
  },
  'auth.legacy_unscoped_expired': {
    kinds: ['forbidden'],
    description: 'the legacy unscoped credential is past its sunset',
  },
  'auth.invalid_token': {
    kinds: ['unauthenticated'],
    description: 'the bearer token is not one this instance issued',
  },
  'auth.wrong_audience': {
    kinds: ['unauthenticated'],
    description: 'the token was not issued for this endpoint',
  },
  'auth.token_expired': { kinds: ['unauthenticated'], description: 'the token has expired' },
  'auth.token_revoked': { kinds: ['unauthenticated'], description: 'the token has been revoked' },
  'auth.persona_deleted': {
    kinds: ['unauthenticated'],
    description: 'the persona the token acts for was deleted',
  },
  'log.stream_conflict': {
    kinds: ['conflict'],
    description: 'a concurrent write changed the same stream; retry',
  },
  'log.outcome_unknown': {
    kinds: ['unavailable'],
    description:
      'the database went away while the write was committing: it may or may not have been written (no `Retry-After`); `commandId` names the command. Retry with the same `Idempotency-Key` to learn the outcome',
  },
  'log.duplicate_event': {
    kinds: ['conflict'],
    description: 'an event with that id from that origin is already in the log',
  },
  'log.row_mismatch': {
    kinds: [],
    description: 'a stored row differs from its signed envelope',
    status: VERIFY_LOG,
  },
  'log.imported_equivocation': {
    kinds: [],
    description: 'two imported events of one origin at one stream version',
    status: VERIFY_LOG,
  },
  'log.imported_out_of_order': {
    kinds: [],
    description: 'an imported event does not extend its stream',
    status: VERIFY_LOG,
  },
  'backup.unreadable': {
    kinds: ['invalid'],
    description: 'the file is not a tributary backup, or it is damaged or cut short',
  },
  'backup.passphrase_required': {
    kinds: ['invalid'],
    description: 'the backup is encrypted; give its passphrase',
  },
  'backup.encryption_required': {
    kinds: ['invalid'],
    description:
      'a backup holds the private keys: give a passphrase file, or say --unencrypted to write them in clear',
  },
  'backup.file_exists': {
    kinds: ['conflict'],
    description: 'a backup is written to a new file only; the file named exists',
  },
  'backup.wrong_passphrase': {
    kinds: ['invalid'],
    description: 'the passphrase is wrong, or the encrypted backup was altered',
  },
  'backup.recovery_incomplete': {
    kinds: ['unavailable'],
    description: 'after a restore, some peers could not be asked for the events this instance lost',
  },
  'backup.recovery_pending': {
    kinds: ['conflict'],
    description: 'the instance was restored and may not start before `tributary recover` has completed',
  },
  'backup.target_not_empty': {
    kinds: ['conflict'],
    description: 'a restore goes only into an empty database and a data folder without keys',
  },
  'log.revoked_key': {
    kinds: [],
    description: 'an event signed by a revoked key that occurred at or after its revocation time',
    status: VERIFY_LOG,
  },
  'log.version_chain_broken': { kinds: [], description: 'stream versions are not 1..n', status: VERIFY_LOG },
  'envelope.malformed': { kinds: ['invalid'], description: 'a signed envelope is not well-formed' },
  'envelope.malformed_json': { kinds: ['invalid'], description: 'a signed envelope is not valid JSON' },
  'envelope.non_canonical_number': {
    kinds: ['invalid'],
    description: 'a signed envelope holds a number in a non-canonical form',
  },
  'envelope.duplicate_key': { kinds: ['invalid'], description: 'a signed envelope repeats a member name' },
  'envelope.unknown_key': {
    kinds: ['invalid'],
    description: 'a signed envelope has a member we do not know',
  },
  'envelope.bad_signature': { kinds: ['invalid'], description: "an envelope's signature does not verify" },
  'server.internal': { kinds: [], description: 'a bug; the request id finds it in the logs', status: '500' },
} as const satisfies ErrorCodeList;

export const EDGE_ERROR_CODES = {
  'request.malformed_json': { kinds: ['invalid'], description: 'the body is not JSON' },
  'request.too_large': {
    kinds: ['too_large'],
    description: 'the body exceeds `MAX_BODY_BYTES` (the connection then closes)',
  },
  'operation.not_found': { kinds: ['not_found'], description: 'no such operation' },
  'request.aborted': { kinds: ['invalid'], description: 'the request body did not arrive whole' },
  'request.idempotency_key_invalid': {
    kinds: ['invalid'],
    description:
      'an `Idempotency-Key` header that is empty, longer than 255 characters or not printable ASCII',
  },
  'request.idempotency_key_reused': {
    kinds: ['unprocessable'],
    description:
      'an `Idempotency-Key` already used by this principal for this operation with a different input; nothing was written',
  },
  'outbound.bad_url': {
    kinds: ['invalid'],
    description: 'a URL to call is not http(s), or has user info',
  },
  'outbound.unsafe_url': { kinds: ['invalid'], description: 'a URL to call names a refused address' },
  'outbound.unresolvable_host': {
    kinds: ['unavailable'],
    description: 'the host of a URL to call does not resolve',
  },
  'outbound.unreachable': { kinds: ['unavailable'], description: 'a call out could not connect' },
  'outbound.redirect_refused': {
    kinds: ['unavailable'],
    description: 'a call out was answered with a redirect (never followed)',
  },
  'outbound.too_many_redirects': {
    kinds: ['unavailable'],
    description: 'more redirects than the caller allows',
  },
  'outbound.timeout': { kinds: ['unavailable'], description: "a call out's answer exceeded its time limit" },
  'outbound.too_large': {
    kinds: ['unavailable'],
    description: "a call out's answer exceeded its size limit",
  },
} as const satisfies ErrorCodeList;
