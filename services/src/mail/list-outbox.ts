// The outbox (docs/mail.md#outbox): the messages this instance wrote to its log because it has no mail
// server, as the recipient would have read them — links included, their tokens derived as the consumer
// derives them — so an operator of a development or small instance can pass a link on by hand. A
// message that went out through SMTP is not shown: its links are for its recipient alone.
import type { EventData, MailTemplateName } from '@tributary/domain';
import { renderMail } from '@tributary/domain';
import { z } from 'zod';
import { defineMailOperation } from './mail-operation.js';

export const OUTBOX_DEFAULT_LIMIT = 25;
export const OUTBOX_MAX_LIMIT = 100;

const outboxMessage = z.object({
  requestedAt: z.string(),
  template: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string().describe('the plain-text body, as the recipient would have read it'),
  links: z.array(z.string()).describe('the links in the body, in order'),
  status: z.string().describe('pending, sending, retrying, sent, failed or unknown'),
});

export const listOutbox = defineMailOperation({
  name: 'svc.mail.list_outbox',
  title: 'Read the outbox',
  description:
    'The messages this instance wrote to its log instead of mailing them (it has no mail server: SMTP_URL is unset), newest first, with their links. Operators only.',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    limit: z.number().int().min(1).max(OUTBOX_MAX_LIMIT).default(OUTBOX_DEFAULT_LIMIT),
  }),
  output: z.object({
    delivery: z.enum(['smtp', 'log']).describe('smtp: a mail server is configured; log: the outbox'),
    messages: z.array(outboxMessage),
  }),
  async run(ctx, input) {
    const mail = ctx.services.mail;
    const store = ctx.services.store;
    const messages: z.infer<typeof outboxMessage>[] = [];
    for (const r of await mail.read.recent(input.limit)) {
      const events = await store.readStream(r.stream);
      const requested = events.find((e) => e.type === 'mail.requested');
      if (!requested) continue;
      const sent = events.find((e) => e.type === 'mail.sent');
      const via = sent ? (sent.data as EventData<'mail.sent'>).via : undefined;
      // Written to the log, or waiting to be while there is no mail server.
      if (sent ? via !== 'log' : mail.transport.mode !== 'log') continue;
      const d = requested.data as EventData<'mail.requested'>;
      const variables =
        d.tokenIn !== undefined && d.variables[d.tokenIn] !== undefined
          ? { ...d.variables, [d.tokenIn]: `${d.variables[d.tokenIn]}?token=${mail.linkToken(d.requestKey)}` }
          : d.variables;
      const rendered = renderMail(d.template as MailTemplateName, variables, ctx.instance.name);
      messages.push({
        requestedAt: requested.occurredAt,
        template: d.template,
        to: [...d.to],
        subject: rendered.subject,
        text: rendered.text,
        links: rendered.text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
        status: r.status,
      });
    }
    return { delivery: mail.transport.mode, messages };
  },
});
