// Mail to a site's owner about new form submissions (docs/builder.md#submission-mail): a checkpointed
// consumer of the log, run by the mail runner before each sending pass, under the same lock. It reads
// the `form.submission_received` events after its cursor and, for each, decides on the form's
// `mailnotice-<formId>` stream (domain/src/mail/submission-notices.ts): mail now, or wait for the end of
// the form's quiet time. A mail is a `mail.requested` (template `form_submission`) committed with its
// decision, so the sending consumer delivers it with the guarantees of docs/mail.md#guarantees, and a
// pass repeated after a crash finds the submission decided and writes nothing. Nothing is queued where
// no mail server is set up (SMTP_URL), for a site or form whose owner turned it off, or for an owner
// without a verified address.
import {
  decideSubmissionNoticeDeferred,
  decideSubmissionNoticeQueued,
  isDomainError,
  MAIL_FIELDS_VARIABLE_CHARS,
  MAIL_SHORT_VARIABLE_CHARS,
  planSubmissionNotice,
  submissionMailStream,
  submissionNoticeStream,
  waitingNotice,
  type FormField,
  type NewEvent,
  type SubmissionMailSettingState,
  type SubmissionNoticeState,
  type SubmissionValues,
} from '@tributary/domain';
import type { BuilderServices } from '../builder/ports/index.js';
import { commitEvents } from '../pipeline/execute.js';
import type { MailOperationServices } from './mail-operation.js';
import type { SequencedSubmission } from './ports.js';
import { requestMail, type MailRequestContext } from './request-mail.js';

/** Sequenced events read per query, and due waiting mails taken per pass. */
const CURSOR_BATCH = 1000;
const DUE_BATCH = 50;
/** Characters of one value as the mail shows it; the rest is on the submissions page. */
export const SUBMISSION_MAIL_VALUE_CHARS = 1000;

export type SubmissionNoticeServices = MailOperationServices & BuilderServices;

export interface SubmissionNoticeOutcome {
  /** Mails asked for (each tells of one or more submissions). */
  queued: number;
  /** Submissions left waiting for the end of their form's quiet time. */
  deferred: number;
}

/** One pass: new submissions behind the cursor, then the waiting mails whose time has come. */
export async function runSubmissionNoticePass(
  services: SubmissionNoticeServices,
): Promise<SubmissionNoticeOutcome> {
  const out: SubmissionNoticeOutcome = { queued: 0, deferred: 0 };
  const instance = await services.instance.read.get();
  if (!instance) return out;
  const mail = services.mail;
  const n: Notifier = { services, actorId: instance.primaryAgentId, baseUrl: instance.baseUrl, out };
  // Without a mail server nothing is queued: the cursor still moves, so setting one up later does not
  // mail about what came before (the home page says why no mail came).
  const smtp = mail.transport.mode === 'smtp';
  for (;;) {
    const since = await mail.submissionCursor.position();
    const { submissions, last } = await mail.submissionCursor.next(since, CURSOR_BATCH);
    if (last === null) break;
    if (smtp) for (const s of submissions) await arrived(n, s);
    // Past the batch only once each submission in it is decided on the log (or needs no mail).
    await mail.submissionCursor.advance(last);
  }
  for (const formId of await mail.read.dueSubmissionNotices(services.clock.now(), DUE_BATCH))
    await due(n, formId, smtp);
  return out;
}

interface Notifier {
  services: SubmissionNoticeServices;
  actorId: string;
  baseUrl: string;
  out: SubmissionNoticeOutcome;
}

/** A stream's folded state, through the commit path's cache (a commit that decides nothing writes nothing). */
async function stateOf<S>(n: Notifier, stream: string): Promise<S> {
  let state: unknown;
  await commitEvents(
    n.services,
    [stream],
    (states) => {
      state = states.get(stream);
      return [];
    },
    n.actorId,
  );
  return state as S;
}

interface Recipient {
  to: string;
  /** The submissions page; a persona's form is opened acting as the persona. */
  page: string;
  site: string;
  form: string;
  fields: FormField[];
}

/** Who is told, or why no one is: the form and site live, both settings on, a verified address. */
async function recipientOf(
  n: Notifier,
  formId: string,
  siteId: string | null,
): Promise<Recipient | { none: string }> {
  const { builder, mail } = n.services;
  const form = await builder.read.form(formId);
  if (!form) return { none: 'form_deleted' };
  const site = siteId ? await builder.read.site(siteId) : null;
  if (siteId && (!site || site.ownerAgentId !== form.ownerAgentId)) return { none: 'site_gone' };
  const settings = [
    submissionMailStream('form', formId),
    ...(siteId ? [submissionMailStream('site', siteId)] : []),
  ];
  for (const stream of settings)
    if (!(await stateOf<SubmissionMailSettingState>(n, stream)).enabled) return { none: 'turned_off' };
  const address = await mail.read.ownerAddress(form.ownerAgentId);
  if (!address?.email || !address.verified) return { none: 'no_verified_address' };
  const page = `${n.baseUrl}/builder/forms/${formId}`;
  return {
    to: address.email,
    page: address.persona ? `${page}?as=${encodeURIComponent(form.ownerAgentId)}` : page,
    site: oneLine(site?.title ?? 'your site'),
    form: oneLine(form.name),
    fields: form.fields,
  };
}

async function arrived(n: Notifier, s: SequencedSubmission): Promise<void> {
  const who = await recipientOf(n, s.formId, s.siteId);
  if ('none' in who) return;
  const stream = submissionNoticeStream(s.formId);
  const state = await stateOf<SubmissionNoticeState>(n, stream);
  const now = n.services.clock.now();
  const plan = planSubmissionNotice(state, s, now, n.services.mail.settings.submissionQuietMs);
  if (plan.kind === 'decided') return;
  if (plan.kind === 'wait') {
    await defer(n, stream, s, plan.dueAt);
    return;
  }
  const queued = await queue(n, who, {
    formId: s.formId,
    count: plan.count,
    through: s.seq,
    since: plan.since,
    submissionId: s.submissionId,
    requestKey: `form-submission:${s.submissionId}`,
  });
  // Over the owner's hourly allowance: it waits, and goes with the next mail once there is room.
  if (queued !== true)
    await defer(n, stream, s, new Date(now.getTime() + queued.retryAfter * 1000).toISOString());
}

async function defer(n: Notifier, stream: string, s: SequencedSubmission, dueAt: string): Promise<void> {
  const { events } = await commitEvents(
    n.services,
    [stream],
    (states) => decideSubmissionNoticeDeferred(states.get(stream) as SubmissionNoticeState, s, dueAt),
    n.actorId,
  );
  if (events.length > 0) n.out.deferred++;
}

async function due(n: Notifier, formId: string, smtp: boolean): Promise<void> {
  const stream = submissionNoticeStream(formId);
  const state = await stateOf<SubmissionNoticeState>(n, stream);
  const now = n.services.clock.now();
  const waiting = waitingNotice(state, now);
  if (!waiting) return;
  const latest = waiting.latestSubmissionId
    ? await n.services.builder.read.submission(waiting.latestSubmissionId)
    : null;
  const who = smtp ? await recipientOf(n, formId, latest?.siteId ?? null) : { none: 'no_mail_server' };
  if ('none' in who) {
    await commitEvents(
      n.services,
      [stream],
      (states) => {
        const s = states.get(stream) as SubmissionNoticeState;
        return s.pending === 0
          ? []
          : [
              {
                stream,
                type: 'mail.submission_notice_dropped',
                data: { formId, count: s.pending, reason: who.none },
              } satisfies NewEvent,
            ];
      },
      n.actorId,
    );
    return;
  }
  const queued = await queue(n, who, {
    formId,
    count: waiting.count,
    through: waiting.through,
    since: waiting.since,
    submissionId: latest?.submissionId ?? null,
    requestKey: `form-digest:${formId}:${waiting.through}`,
  });
  if (queued !== true)
    await commitEvents(
      n.services,
      [stream],
      (): NewEvent[] => [
        {
          stream,
          type: 'mail.submission_notice_postponed',
          data: { formId, dueAt: new Date(now.getTime() + queued.retryAfter * 1000).toISOString() },
        },
      ],
      n.actorId,
    );
}

/**
 * Asks for the mail and records the decision in one commit; true when done, or the wait when the
 * owner's address is over its hourly allowance (nothing written).
 */
async function queue(
  n: Notifier,
  who: Recipient,
  m: {
    formId: string;
    count: number;
    through: number;
    since: string;
    submissionId: string | null;
    requestKey: string;
  },
): Promise<true | { retryAfter: number }> {
  const { services } = n;
  const now = services.clock.now();
  const submission = m.submissionId ? await services.builder.read.submission(m.submissionId) : null;
  const shown = submission ? submissionText(who.fields, submission.values) : null;
  const stream = submissionNoticeStream(m.formId);
  const ctx: MailRequestContext = {
    services,
    now,
    instance: { baseUrl: n.baseUrl },
    commit: (streams, decide) => commitEvents(services, streams, decide, n.actorId),
  };
  try {
    const answer = await requestMail(ctx, {
      requester: { kind: 'instance', purpose: 'form_submission' },
      requestKey: m.requestKey,
      template: 'form_submission',
      to: [who.to],
      variables: {
        site: who.site,
        form: who.form,
        count: String(m.count),
        ...(m.count > 1 && { since: `${m.since.slice(0, 16).replace('T', ' ')} UTC` }),
        ...(shown?.text && { fields: shown.text }),
        link: who.page,
      },
      linkOrigin: n.baseUrl,
      // The visitor's address, when one validated email field holds it and the mail shows that one
      // submission alone: replying then answers the visitor. The From stays this instance's.
      ...(m.count === 1 && shown?.replyTo !== undefined && { replyTo: shown.replyTo }),
      alongside: {
        stream,
        decide: (state) =>
          decideSubmissionNoticeQueued(state as SubmissionNoticeState, {
            formId: m.formId,
            through: m.through,
            count: m.count,
            requestKey: m.requestKey,
            at: now,
          }),
      },
    });
    if (!answer.duplicate) n.out.queued++;
    services.mail.failpoints?.afterNoticeQueued?.();
    return true;
  } catch (e) {
    if (isDomainError(e) && e.code === 'mail.rate_limited')
      return { retryAfter: Math.max(1, Number(e.details?.retryAfter ?? 60)) };
    throw e;
  }
}

const oneLine = (s: string) => cut(s.replace(/\s+/g, ' ').trim(), MAIL_SHORT_VARIABLE_CHARS) || '—';

function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * A submission's values as plain text, in the form's order: `Label: value`, a multi-line value on the
 * lines after its label, each of them indented, so nothing a visitor types can pass for a line of the
 * mail's own (a rule, a link line). Each value is cut at SUBMISSION_MAIL_VALUE_CHARS, the whole at the
 * template's limit. The Reply-To is the first email field's value (validated when it was received).
 */
export function submissionText(
  fields: readonly FormField[],
  values: SubmissionValues,
): { text: string; replyTo?: string } {
  const lines: string[] = [];
  let replyTo: string | undefined;
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined) continue;
    const label = oneLine(f.label);
    if (typeof v === 'boolean') {
      lines.push(`${label}: ${v ? 'yes' : 'no'}`);
      continue;
    }
    const value = cut(String(v), SUBMISSION_MAIL_VALUE_CHARS);
    if (f.type === 'email' && replyTo === undefined && typeof v === 'string') replyTo = v;
    if (value.includes('\n')) lines.push(`${label}:`, ...value.split('\n').map((l) => `    ${l}`));
    else lines.push(`${label}: ${value}`);
  }
  let text = lines.join('\n');
  const max = MAIL_FIELDS_VARIABLE_CHARS - 80;
  if (text.length > max) text = `${text.slice(0, max)}\n(cut here: the rest is on the submissions page)`;
  return { text, ...(replyTo !== undefined && { replyTo }) };
}
