// Transactional mail (docs/mail.md): a request, then what the sending consumer did with it. Never
// federable, never on the public feed (they name recipients).
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

const requester = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('peer'), peerId: z.string() }),
  z.strictObject({ kind: z.literal('instance'), purpose: z.string() }),
]);

export const mailRequested = defineEvent({
  type: 'mail.requested',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    requestKey: z.string(),
    requester,
    template: z.string(),
    to: z.array(z.string()),
    variables: z.record(z.string(), z.string()),
    /** Derived from the request key: the same message carries the same Message-ID, whatever happens. */
    messageId: z.string(),
    /**
     * The link variable that gets `?token=<token>` just before sending, the token derived from the request
     * key with the instance's secret key: an account link's token is never stored (docs/mail.md#accounts).
     */
    tokenIn: z.string().optional(),
    /**
     * The Reply-To: only this instance sets one, and only to an address a form's email field validated
     * (docs/builder.md#submission-mail). The From is always MAIL_FROM.
     */
    replyTo: z.string().optional(),
  }),
});
/** Written before the SMTP transaction starts: a consumer that finds it without an outcome knows. */
export const mailSending = defineEvent({
  type: 'mail.sending',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ attempt: z.number().int().min(1) }),
});
export const mailSent = defineEvent({
  type: 'mail.sent',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    attempt: z.number().int().min(1),
    /** `smtp`: accepted by SMTP_URL's server; `log`: no SMTP configured, the message was logged. */
    via: z.enum(['smtp', 'log']),
    accepted: z.array(z.string()),
    rejected: z.array(z.string()),
  }),
});
/** Surely not delivered (refused before the message was accepted): tried again at `retryAt`. */
export const mailAttemptFailed = defineEvent({
  type: 'mail.attempt_failed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ attempt: z.number().int().min(1), error: z.string(), retryAt: z.string() }),
});
/** Refused for good (a permanent SMTP refusal, or the attempts are used up): never tried again. */
export const mailFailed = defineEvent({
  type: 'mail.failed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ attempt: z.number().int().min(1), error: z.string() }),
});
/**
 * The attempt may or may not have been accepted (the consumer stopped between `mail.sending` and its
 * outcome, or the connection broke after the message was handed over): never tried again, so the
 * request is never sent twice.
 */
export const mailOutcomeUnknown = defineEvent({
  type: 'mail.outcome_unknown',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ attempt: z.number().int().min(1), reason: z.string() }),
});

/** A single-use token for a local account (email verification, password reset); only its digest is kept. */
export const mailTokenIssued = defineEvent({
  type: 'mail.token_issued',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    purpose: z.enum(['verify_email', 'reset_password']),
    accountId: z.string(),
    email: z.string(),
    expiresAt: z.string(),
  }),
});
export const mailTokenUsed = defineEvent({
  type: 'mail.token_used',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({}),
});

/**
 * Mail about new form submissions (docs/builder.md#submission-mail), on the stream
 * `mailnotice-<formId>` the notifier keeps per form. `through` is the log sequence of the last
 * submission a decision covers: a submission at or before it was already decided, so a re-run after a
 * crash decides nothing twice.
 */
export const mailSubmissionNoticeQueued = defineEvent({
  type: 'mail.submission_notice_queued',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    formId: z.string(),
    through: z.number().int().min(0),
    /** Submissions this one mail tells of. */
    count: z.number().int().min(1),
    /** The mail request's key (its stream is `mailreq-<digest>`). */
    requestKey: z.string(),
    at: z.string(),
  }),
});
/** A submission that came within the quiet time after the last mail: told of in the next one, at `dueAt`. */
export const mailSubmissionNoticeDeferred = defineEvent({
  type: 'mail.submission_notice_deferred',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    formId: z.string(),
    submissionId: z.string(),
    through: z.number().int().min(0),
    receivedAt: z.string(),
    dueAt: z.string(),
  }),
});
/** The waiting mail goes later (the owner's address was over its hourly allowance). */
export const mailSubmissionNoticePostponed = defineEvent({
  type: 'mail.submission_notice_postponed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ formId: z.string(), dueAt: z.string() }),
});
/** The waiting submissions are not mailed after all: mail was turned off, or no address can take it. */
export const mailSubmissionNoticeDropped = defineEvent({
  type: 'mail.submission_notice_dropped',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ formId: z.string(), count: z.number().int().min(1), reason: z.string() }),
});

export const mailEvents = [
  mailRequested,
  mailSending,
  mailSent,
  mailAttemptFailed,
  mailFailed,
  mailOutcomeUnknown,
  mailTokenIssued,
  mailTokenUsed,
  mailSubmissionNoticeQueued,
  mailSubmissionNoticeDeferred,
  mailSubmissionNoticePostponed,
  mailSubmissionNoticeDropped,
] as const satisfies readonly EventDefinition[];

export type MailEventData<T extends (typeof mailEvents)[number]['type']> = z.infer<
  Extract<(typeof mailEvents)[number], { type: T }>['data']
>;
