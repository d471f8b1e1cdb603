// A mail request (stream `mailreq-<digest of requester and request key>`) and a single-use account token
// (stream `mailtoken-<digest of the token>`). docs/mail.md#guarantees says what the states promise.
import { conflict, invalid } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { MailEventData as EventData } from './events.js';

export const mailRequestStream = (digest: string) => `mailreq-${digest}`;
export const mailTokenStream = (tokenDigest: string) => `mailtoken-${tokenDigest}`;

/** Recipients of one request, at most. */
export const MAIL_MAX_RECIPIENTS = 10;
/** Characters of a request key. */
export const MAIL_REQUEST_KEY_CHARS = 128;

export type MailStatus = 'none' | 'pending' | 'sending' | 'retrying' | 'sent' | 'failed' | 'unknown';

export interface MailRequestState {
  status: MailStatus;
  request?: EventData<'mail.requested'>;
  attempts: number;
  retryAt?: string;
}
export const initialMailRequestState = (): MailRequestState => ({ status: 'none', attempts: 0 });

export function evolveMailRequest(s: MailRequestState, e: StoredEventLike): MailRequestState {
  switch (e.type) {
    case 'mail.requested':
      return { status: 'pending', attempts: 0, request: e.data as EventData<'mail.requested'> };
    case 'mail.sending':
      return { ...s, status: 'sending', attempts: (e.data as EventData<'mail.sending'>).attempt };
    case 'mail.sent':
      return { ...s, status: 'sent' };
    case 'mail.attempt_failed':
      return { ...s, status: 'retrying', retryAt: (e.data as EventData<'mail.attempt_failed'>).retryAt };
    case 'mail.failed':
      return { ...s, status: 'failed' };
    case 'mail.outcome_unknown':
      return { ...s, status: 'unknown' };
    default:
      return s;
  }
}

/** A new request; the same request again (same key, same content) decides nothing. */
export function decideRequestMail(
  stream: string,
  request: EventData<'mail.requested'>,
  s: MailRequestState,
): NewEvent[] {
  if (s.request) {
    const same =
      s.request.template === request.template &&
      JSON.stringify(s.request.to) === JSON.stringify(request.to) &&
      JSON.stringify(sorted(s.request.variables)) === JSON.stringify(sorted(request.variables));
    if (!same)
      throw conflict('mail.request_key_reused', 'that request key was already used for another message');
    return [];
  }
  return [{ stream, type: 'mail.requested', data: request }];
}

const sorted = (o: Record<string, string>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/**
 * The claim on an attempt: only a pending request, or one whose retry time has come, may start one.
 * Appended at the stream's expected version, so two consumers never both start the same attempt.
 */
export function decideStartSending(stream: string, s: MailRequestState, now: Date): NewEvent[] {
  const due =
    s.status === 'pending' || (s.status === 'retrying' && Date.parse(s.retryAt ?? '') <= now.getTime());
  if (!due) return [];
  return [{ stream, type: 'mail.sending', data: { attempt: s.attempts + 1 } }];
}

export type SendOutcome =
  | { kind: 'sent'; via: 'smtp' | 'log'; accepted: string[]; rejected: string[] }
  /** Refused before the message was accepted and worth another try. */
  | { kind: 'transient'; error: string }
  | { kind: 'permanent'; error: string }
  | { kind: 'unknown'; reason: string };

/** What an attempt's outcome records; a transient failure past the last attempt is a failure. */
export function decideSendOutcome(
  stream: string,
  s: MailRequestState,
  outcome: SendOutcome,
  retry: { maxAttempts: number; retryAt: (attempt: number) => Date },
): NewEvent[] {
  if (s.status !== 'sending') return [];
  const attempt = s.attempts;
  switch (outcome.kind) {
    case 'sent':
      return [
        {
          stream,
          type: 'mail.sent',
          data: { attempt, via: outcome.via, accepted: outcome.accepted, rejected: outcome.rejected },
        },
      ];
    case 'transient':
      if (attempt < retry.maxAttempts)
        return [
          {
            stream,
            type: 'mail.attempt_failed',
            data: {
              attempt,
              error: outcome.error.slice(0, 500),
              retryAt: retry.retryAt(attempt).toISOString(),
            },
          },
        ];
      return [{ stream, type: 'mail.failed', data: { attempt, error: outcome.error.slice(0, 500) } }];
    case 'permanent':
      return [{ stream, type: 'mail.failed', data: { attempt, error: outcome.error.slice(0, 500) } }];
    case 'unknown':
      return [
        { stream, type: 'mail.outcome_unknown', data: { attempt, reason: outcome.reason.slice(0, 500) } },
      ];
  }
}

// Single-use tokens for local accounts.

export type MailTokenPurpose = 'verify_email' | 'reset_password';

export interface MailTokenState {
  issued?: EventData<'mail.token_issued'>;
  used: boolean;
}
export const initialMailTokenState = (): MailTokenState => ({ used: false });

export function evolveMailToken(s: MailTokenState, e: StoredEventLike): MailTokenState {
  if (e.type === 'mail.token_issued')
    return { issued: e.data as EventData<'mail.token_issued'>, used: false };
  if (e.type === 'mail.token_used') return { ...s, used: true };
  return s;
}

export function decideIssueMailToken(
  stream: string,
  data: EventData<'mail.token_issued'>,
  s: MailTokenState,
): NewEvent[] {
  if (s.issued) throw conflict('mail.token_exists', 'that token was already issued');
  return [{ stream, type: 'mail.token_issued', data }];
}

/**
 * Redeems a token once. Unknown, used, expired and wrong-purpose tokens get one answer, so a guess
 * learns nothing about which tokens exist.
 */
export function decideUseMailToken(
  stream: string,
  s: MailTokenState,
  purpose: MailTokenPurpose,
  now: Date,
): { events: NewEvent[]; accountId: string; email: string } {
  if (!s.issued || s.used || s.issued.purpose !== purpose || Date.parse(s.issued.expiresAt) <= now.getTime())
    throw invalid('mail.token_invalid', 'that link is not valid: it may have expired or been used already');
  return {
    events: [{ stream, type: 'mail.token_used', data: {} }],
    accountId: s.issued.accountId,
    email: s.issued.email,
  };
}
