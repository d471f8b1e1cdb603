// The mail area's ports (docs/mail.md): the SMTP transport (or the log, when none is configured), the
// per-peer and per-recipient rates, the consumer's cursor and the reads of the requests' read model.

/** One message as the transport sends it; the Message-ID is derived from the request key. */
export interface OutgoingMail {
  messageId: string;
  from: string;
  to: readonly string[];
  /** Set only by this instance's own mail, to an address a form validated (docs/builder.md#submission-mail). */
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

/** How a transport attempt ended, in the terms the guarantee needs (docs/mail.md#guarantees). */
export type TransportResult =
  | { kind: 'sent'; accepted: string[]; rejected: string[] }
  /** The server refused before accepting the message, and a later try may succeed (4xx, no connection). */
  | { kind: 'transient'; error: string }
  /** The server refused for good (5xx). */
  | { kind: 'permanent'; error: string }
  /** The message may have been accepted (the connection broke once it was handed over). */
  | { kind: 'unknown'; error: string };

export interface MailTransport {
  /** `smtp` with SMTP_URL; `log` when none is configured (each message is written to the log instead). */
  mode: 'smtp' | 'log';
  send(mail: OutgoingMail): Promise<TransportResult>;
}

/** Counts within a fixed window per key, shared by every process (a throttle, not a fact: not in the log). */
export interface MailRateLimiter {
  /**
   * Counts one message for each key at `at` if every key is under its limit; otherwise counts nothing
   * and answers the whole seconds until the first refusing key has room again.
   */
  take(keys: readonly { key: string; limit: number }[], at: Date): Promise<number>;
}

/** The consumer's durable position on the sequenced log. */
export interface MailCursor {
  position(): Promise<number>;
  /**
   * The streams of the `mail.requested` events among the next `limit` sequenced events after `since`,
   * and the sequence of the last event read (null when none followed).
   */
  next(since: number, limit: number): Promise<{ requests: string[]; last: number | null }>;
  /** Moves forward only (a slower process never moves it back). */
  advance(to: number): Promise<void>;
}

/** A form submission as the notifier reads it off the sequenced log. */
export interface SequencedSubmission {
  seq: number;
  formId: string;
  submissionId: string;
  siteId: string;
  receivedAt: string;
}

/** The notifier's durable position on the sequenced log (docs/builder.md#submission-mail). */
export interface SubmissionNoticeCursor {
  position(): Promise<number>;
  /** The `form.submission_received` events among the next `limit` sequenced events after `since`. */
  next(since: number, limit: number): Promise<{ submissions: SequencedSubmission[]; last: number | null }>;
  advance(to: number): Promise<void>;
}

export interface MailRequestSummary {
  stream: string;
  status: string;
  retryAt: string | null;
}

export interface MailReadModels {
  /** Requests whose retry time has come, oldest first. */
  dueRetries(now: Date, limit: number): Promise<MailRequestSummary[]>;
  /** Requests by status, for the instance status. */
  countsByStatus(): Promise<Record<string, number>>;
  /** The latest requests, newest first (the outbox). */
  recent(limit: number): Promise<MailRequestSummary[]>;
  /** Forms whose waiting submission mail is due, soonest first. */
  dueSubmissionNotices(now: Date, limit: number): Promise<string[]>;
  /**
   * The owner's address for mail about their sites: the account of the agent, or of the person a
   * persona belongs to; null when there is none.
   */
  ownerAddress(agentId: string): Promise<OwnerAddress | null>;
}

export interface OwnerAddress {
  email: string | null;
  verified: boolean;
  /** The agent is a persona of the account's person. */
  persona: boolean;
}

export interface MailSettings {
  /** MAIL_FROM: the From of every message. */
  from: string;
  /** Messages a peer may ask for per hour, and a recipient may receive per hour (MAIL_RATE_PER_*). */
  perPeerPerHour: number;
  perRecipientPerHour: number;
  /** Attempts of one request before it fails, and the first retry's delay (doubling after it). */
  maxAttempts: number;
  retryBaseMs: number;
  /** How long a verification or reset link lives. */
  tokenSeconds: number;
  /** BUILDER_SUBMISSION_MAIL_MINUTES: the quiet time after a submission mail, per form. */
  submissionQuietMs: number;
}

export interface MailPorts {
  transport: MailTransport;
  limiter: MailRateLimiter;
  cursor: MailCursor;
  /** The submission notifier's cursor (docs/builder.md#submission-mail). */
  submissionCursor: SubmissionNoticeCursor;
  read: MailReadModels;
  settings: MailSettings;
  /**
   * The token of an account link, derived from its request key with the instance's secret key (HMAC), so
   * the token is never stored and the consumer can put it into the link just before sending.
   */
  linkToken(requestKey: string): string;
  /** Tests only: called around the SMTP transaction (a crash at a chosen point). */
  failpoints?: {
    /** Before the consumer records `mail.sending` for a request. */
    beforeClaim?: (() => void) | undefined;
    /** After the SMTP server accepted a message, before its outcome is recorded. */
    afterAccepted?: (() => void) | undefined;
    /** After a submission mail was asked for with its decision, before the notifier's cursor moves. */
    afterNoticeQueued?: (() => void) | undefined;
  };
}

/** Transactional mail (docs/mail.md); composed only where the process sends mail. */
export interface MailServices {
  mail: MailPorts;
}
