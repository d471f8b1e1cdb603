// Accepting a mail request (docs/mail.md#requests): the template and its variables checked, the
// recipients checked and counted against the rates, then one `mail.requested` event. Sending is the
// consumer's (send-mail.ts); a request is idempotent by its key, per requester.
import {
  checkMailVariables,
  decideRequestMail,
  DomainError,
  emailSchema,
  fold,
  forbidden,
  invalid,
  isMailTemplateName,
  MAIL_MAX_RECIPIENTS,
  MAIL_REQUEST_KEY_CHARS,
  mailRequestStream,
  normalizeEmail,
  templateAllows,
  type MailEventData,
  type MailRequestState,
  type NewEvent,
} from '@tributary/domain';
import type { MailOperationContext } from './mail-operation.js';
import type { MailOperationServices } from './mail-operation.js';

export type MailRequester = MailEventData<'mail.requested'>['requester'];

export interface MailRequestInput {
  requester: MailRequester;
  requestKey: string;
  template: string;
  to: readonly string[];
  variables: unknown;
  /** Every link variable must start with this origin (the requesting peer's, or this instance's). */
  linkOrigin: string;
  /** Written in the same commit as the request (an account token the message carries). */
  alongside?: { stream: string; decide: (state: unknown) => NewEvent[] };
  /** The link variable the consumer appends the request key's derived token to (see `linkToken`). */
  tokenIn?: string;
  /** One plain address (a form's validated email field); only this instance's own mail sets it. */
  replyTo?: string;
}

/** What a request needs of its caller: an operation's context, or the notifier's (submission-notices.ts). */
export type MailRequestContext = Pick<MailOperationContext, 'services' | 'now' | 'commit'> & {
  instance: { baseUrl: string };
};

export interface MailRequestAnswer {
  requestKey: string;
  messageId: string;
  status: MailRequestState['status'];
  /** `smtp`: sent through SMTP_URL; `log`: no SMTP configured here, the message is written to the log. */
  delivery: 'smtp' | 'log';
  /** True when this key was already accepted (nothing new was written). */
  duplicate: boolean;
}

const REQUEST_KEY = /^[A-Za-z0-9._:-]+$/;

const scopeOf = (r: MailRequester) => (r.kind === 'peer' ? `peer:${r.peerId}` : `instance:${r.purpose}`);

/** The request's stream, from the requester and its key: the key is the dedupe key, per requester. */
export const mailStreamOf = (services: MailOperationServices, requester: MailRequester, requestKey: string) =>
  mailRequestStream(services.ids.sha256(`mail:${scopeOf(requester)}:${requestKey}`));

/** Checks a request without writing anything; throws the stable code of the first problem. */
export function checkMailRequest(input: MailRequestInput): {
  template: string;
  to: string[];
  variables: Record<string, string>;
  replyTo?: string;
} {
  if (
    typeof input.requestKey !== 'string' ||
    input.requestKey.length < 8 ||
    input.requestKey.length > MAIL_REQUEST_KEY_CHARS ||
    !REQUEST_KEY.test(input.requestKey)
  )
    throw invalid(
      'mail.bad_request_key',
      `requestKey: 8–${MAIL_REQUEST_KEY_CHARS} characters of A–Z a–z 0–9 . _ : -`,
    );
  if (!isMailTemplateName(input.template))
    throw invalid('mail.unknown_template', 'no template of that name here (see docs/mail.md#templates)', {
      template: input.template,
    });
  if (!templateAllows(input.template, input.requester.kind))
    throw forbidden('mail.template_not_allowed', 'that template is not offered to you');
  if (!Array.isArray(input.to) || input.to.length === 0)
    throw invalid('mail.bad_address', 'to: one to ten email addresses');
  if (input.to.length > MAIL_MAX_RECIPIENTS)
    throw invalid('mail.too_many_recipients', `at most ${MAIL_MAX_RECIPIENTS} recipients`, {
      max: MAIL_MAX_RECIPIENTS,
    });
  const to: string[] = [];
  for (const address of input.to) {
    if (!isPlainAddress(address))
      throw invalid('mail.bad_address', 'each recipient is one email address', { address: String(address) });
    const n = normalizeEmail(address);
    if (!to.includes(n)) to.push(n);
  }
  let replyTo: string | undefined;
  if (input.replyTo !== undefined) {
    if (input.requester.kind !== 'instance' || !isPlainAddress(input.replyTo))
      throw invalid('mail.bad_address', 'replyTo is one email address', { address: String(input.replyTo) });
    replyTo = normalizeEmail(input.replyTo);
  }
  const checked = checkMailVariables(input.template, input.variables);
  if (!checked.ok)
    throw invalid('mail.bad_variables', 'the variables are not those the template declares', {
      issues: checked.issues,
    });
  for (const link of checked.links)
    if (new URL(link).origin !== new URL(input.linkOrigin).origin)
      throw invalid('mail.link_off_origin', 'links must point at your own origin', {
        origin: new URL(input.linkOrigin).origin,
      });
  return {
    template: input.template,
    to,
    variables: checked.variables,
    ...(replyTo !== undefined && { replyTo }),
  };
}

/** One plain address: no display names, lists or header tricks. */
const isPlainAddress = (address: unknown): address is string =>
  typeof address === 'string' && emailSchema.safeParse(address).success && !/[\s,;<>"]/.test(address);

/**
 * Records the request (or finds it already recorded under the same key). Rates are counted only for a
 * new request; a refused one writes nothing.
 */
export async function requestMail(
  ctx: MailRequestContext,
  input: MailRequestInput,
): Promise<MailRequestAnswer> {
  const { services } = ctx;
  const mail = services.mail;
  const checked = checkMailRequest(input);
  const stream = mailStreamOf(services, input.requester, input.requestKey);
  const host = new URL(ctx.instance.baseUrl).hostname;
  const messageId = `<${stream.slice('mailreq-'.length, 'mailreq-'.length + 40)}@${host}>`;
  const request: MailEventData<'mail.requested'> = {
    requestKey: input.requestKey,
    requester: input.requester,
    template: checked.template,
    to: checked.to,
    variables: checked.variables,
    messageId,
    ...(input.tokenIn !== undefined && { tokenIn: input.tokenIn }),
    ...(checked.replyTo !== undefined && { replyTo: checked.replyTo }),
  };
  const existing = fold<MailRequestState>(stream, await services.store.readStream(stream));
  if (existing.request) {
    decideRequestMail(stream, request, existing); // throws when the key names another message
    return {
      requestKey: input.requestKey,
      messageId: existing.request.messageId,
      status: existing.status,
      delivery: mail.transport.mode,
      duplicate: true,
    };
  }
  const keys = checked.to.map((address) => ({
    key: `mail-rcpt:${services.ids.sha256(address)}`,
    limit: mail.settings.perRecipientPerHour,
  }));
  if (input.requester.kind === 'peer')
    keys.unshift({ key: `mail-peer:${input.requester.peerId}`, limit: mail.settings.perPeerPerHour });
  const wait = await mail.limiter.take(keys, ctx.now);
  if (wait > 0)
    throw new DomainError('mail.rate_limited', 'rate_limited', 'too many messages; try again later', {
      retryAfter: wait,
    });
  const extra = input.alongside;
  const { events } = await ctx.commit(extra ? [stream, extra.stream] : [stream], (states) => [
    ...decideRequestMail(stream, request, states.get(stream) as MailRequestState),
    ...(extra ? extra.decide(states.get(extra.stream)) : []),
  ]);
  return {
    requestKey: input.requestKey,
    messageId,
    status: 'pending',
    delivery: mail.transport.mode,
    duplicate: events.length === 0,
  };
}
