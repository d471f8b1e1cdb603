// The mail consumer (docs/mail.md#guarantees): a checkpointed consumer of the log. It reads the
// sequenced log after its cursor for `mail.requested`, and the requests whose retry time has come, and
// sends each through the transport. Every step is decided on the request's own stream at its expected
// version, so a re-run after a crash repeats nothing that is on the log:
//   pending ──mail.sending──▶ sending ──mail.sent / attempt_failed / failed / outcome_unknown──▶ …
// `mail.sending` is on the log before the SMTP transaction starts; a consumer that finds a request
// still `sending` (only possible after the process that started it died: one consumer runs at a time)
// records `mail.outcome_unknown` and never sends it again. So a request is sent at most once, and, but
// for a crash inside that one window, exactly once.
import {
  decideSendOutcome,
  decideStartSending,
  fold,
  isDomainError,
  renderMail,
  type MailRequestState,
  type SendOutcome,
} from '@tributary/domain';
import { commitEvents } from '../pipeline/execute.js';
import type { MailOperationServices } from './mail-operation.js';
import type { MailPorts } from './ports.js';
import { instanceSettings } from '../instance/index.js';

/** Sequenced events read per pass, and due retries taken per pass. */
const CURSOR_BATCH = 1000;
const RETRY_BATCH = 50;
/** The longest wait between two attempts. */
const MAX_RETRY_DELAY_MS = 3_600_000;

export interface MailPassOutcome {
  /** Requests this pass took an attempt of (sent, failed, retried or unknown). */
  attempted: number;
  sent: number;
}

/** When attempt `n` (1-based) failed, the next one comes after base × 2^(n−1), at most an hour. */
export const mailRetryDelayMs = (settings: MailPorts['settings'], attempt: number) =>
  Math.min(MAX_RETRY_DELAY_MS, settings.retryBaseMs * 2 ** (attempt - 1));

/** One pass: new requests behind the cursor, then due retries. Runs only where the caller holds the consumer's lock. */
export async function runMailPass(services: MailOperationServices): Promise<MailPassOutcome> {
  const mail = services.mail;
  const instance = await services.instance.read.get();
  if (!instance) return { attempted: 0, sent: 0 };
  // Paused by the operators: nothing is claimed and the cursor stays, so every waiting request goes, in
  // order, on the first pass after the pause ends (read fresh on each pass: it ends within MAIL_POLL_MS).
  if ((await instanceSettings(services, { fresh: true })).mailPaused) return { attempted: 0, sent: 0 };
  const out: MailPassOutcome = { attempted: 0, sent: 0 };
  const ctx = { services, mail, actorId: instance.primaryAgentId, instanceName: instance.name };
  for (;;) {
    const since = await mail.cursor.position();
    const { requests, last } = await mail.cursor.next(since, CURSOR_BATCH);
    if (last === null) break;
    for (const stream of requests) await attempt(ctx, stream, out);
    // Past the batch only once each request in it has its attempt's outcome (or its first claim) on the log.
    await mail.cursor.advance(last);
  }
  for (const due of await mail.read.dueRetries(services.clock.now(), RETRY_BATCH))
    await attempt(ctx, due.stream, out);
  return out;
}

interface PassContext {
  services: MailOperationServices;
  mail: MailPorts;
  actorId: string;
  instanceName: string;
}

async function attempt(c: PassContext, stream: string, out: MailPassOutcome): Promise<void> {
  const { services, mail } = c;
  const now = services.clock.now();
  const state = fold<MailRequestState>(stream, await services.store.readStream(stream));
  if (!state.request) return;
  if (state.status === 'sending') {
    // Started by a consumer that stopped before recording the outcome: it may have been delivered.
    await record(c, stream, {
      kind: 'unknown',
      reason: 'the sending process stopped before recording the outcome',
    });
    out.attempted++;
    return;
  }
  mail.failpoints?.beforeClaim?.();
  let claimed;
  try {
    claimed = await commitEvents(
      services,
      [stream],
      (s) => decideStartSending(stream, s.get(stream) as MailRequestState, now),
      c.actorId,
    );
  } catch (e) {
    // Another consumer took this attempt first: it is theirs.
    if (isDomainError(e) && e.kind === 'conflict') return;
    throw e;
  }
  if (claimed.events.length === 0) return;
  out.attempted++;
  const r = state.request;
  // An account link's token is derived here, just before SMTP: it is in the message, never on the log.
  const variables =
    r.tokenIn !== undefined && r.variables[r.tokenIn] !== undefined
      ? { ...r.variables, [r.tokenIn]: `${r.variables[r.tokenIn]}?token=${mail.linkToken(r.requestKey)}` }
      : r.variables;
  const rendered = renderMail(r.template as Parameters<typeof renderMail>[0], variables, c.instanceName);
  const result = await mail.transport.send({
    messageId: r.messageId,
    from: mail.settings.from,
    to: r.to,
    ...(r.replyTo !== undefined && { replyTo: r.replyTo }),
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
  });
  if (result.kind === 'sent') mail.failpoints?.afterAccepted?.();
  const outcome: SendOutcome =
    result.kind === 'sent'
      ? { kind: 'sent', via: mail.transport.mode, accepted: result.accepted, rejected: result.rejected }
      : result.kind === 'unknown'
        ? { kind: 'unknown', reason: result.error }
        : result;
  await record(c, stream, outcome);
  if (outcome.kind === 'sent') out.sent++;
}

async function record(c: PassContext, stream: string, outcome: SendOutcome): Promise<void> {
  const settings = c.mail.settings;
  const now = c.services.clock.now();
  await commitEvents(
    c.services,
    [stream],
    (s) =>
      decideSendOutcome(stream, s.get(stream) as MailRequestState, outcome, {
        maxAttempts: settings.maxAttempts,
        retryAt: (n) => new Date(now.getTime() + mailRetryDelayMs(settings, n)),
      }),
    c.actorId,
  );
}
