// Mail about new submissions as the owner sees it (docs/builder.md#submission-mail): whether mail can
// reach them at all, and the setting of each of their sites and forms (on unless turned off).
import { fold, submissionMailStream, type SubmissionMailSettingState } from '@tributary/domain';
import { z } from 'zod';
import type { AccountsServices } from '../accounts/ports.js';
import type { MailServices } from '../mail/ports.js';
import type { BuilderOperationContext } from './builder-operation.js';

export const submissionMailDelivery = z
  .enum(['on', 'no_mail_server', 'no_email', 'email_not_verified'])
  .describe(
    'on: new submissions are mailed to `email`; otherwise why none is sent: this instance has no mail server ' +
      '(SMTP_URL), your account has no email address, or it is not verified yet',
  );

export const submissionMailOutput = z.object({
  delivery: submissionMailDelivery,
  email: z.string().nullable(),
  quietSeconds: z
    .number()
    .int()
    .nullable()
    .describe('after a mail about a form, its next submissions wait this long and come in one mail'),
  sites: z.array(z.object({ siteId: z.string(), title: z.string(), enabled: z.boolean() })),
  forms: z.array(z.object({ formId: z.string(), name: z.string(), enabled: z.boolean() })),
});
export type SubmissionMailView = z.infer<typeof submissionMailOutput>;

type Ctx = BuilderOperationContext & {
  services: BuilderOperationContext['services'] & Partial<MailServices> & Partial<AccountsServices>;
};

/** The setting of one site or form: on until the owner turns it off. */
export async function submissionMailEnabled(
  ctx: BuilderOperationContext,
  target: 'site' | 'form',
  id: string,
): Promise<boolean> {
  const stream = submissionMailStream(target, id);
  return fold<SubmissionMailSettingState>(stream, await ctx.services.store.readStream(stream)).enabled;
}

export async function submissionMailView(c: BuilderOperationContext): Promise<SubmissionMailView> {
  const ctx = c as Ctx;
  const { builder, mail, accounts } = ctx.services;
  const p = ctx.principal;
  const account =
    accounts && (p.kind === 'session' || p.kind === 'token')
      ? await accounts.read.accountById(p.accountId)
      : null;
  const delivery: SubmissionMailView['delivery'] =
    mail?.transport.mode !== 'smtp'
      ? 'no_mail_server'
      : !account?.email
        ? 'no_email'
        : !account.emailVerifiedAt
          ? 'email_not_verified'
          : 'on';
  const [sites, forms] = await Promise.all([
    builder.read.sitesOf(ctx.actor.agentId),
    builder.read.formsOf(ctx.actor.agentId),
  ]);
  return {
    delivery,
    email: account?.email ?? null,
    quietSeconds: mail ? Math.round(mail.settings.submissionQuietMs / 1000) : null,
    sites: await Promise.all(
      sites.map(async (s) => ({
        siteId: s.siteId,
        title: s.title,
        enabled: await submissionMailEnabled(c, 'site', s.siteId),
      })),
    ),
    forms: await Promise.all(
      forms.map(async (f) => ({
        formId: f.formId,
        name: f.name,
        enabled: await submissionMailEnabled(c, 'form', f.formId),
      })),
    ),
  };
}
