// The mail transport (docs/mail.md#configuration): SMTP_URL through nodemailer, or, with none
// configured, the log (the message is written there and counts as handled). Each failure is sorted
// into what the guarantee needs: refused for now, refused for good, or maybe accepted.
import type { MailTransport, OutgoingMail, TransportResult } from '@tributary/services';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** A connection, a greeting or a server answer that takes longer than this fails the attempt. */
const SMTP_TIMEOUT_MS = 30_000;

/** No connection was made at all: surely not delivered. */
const NEVER_CONNECTED = /ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ECONNRESET before/;

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  command?: string;
}

/** How an error of nodemailer's maps onto the guarantee (docs/mail.md#guarantees). */
export function classifySmtpError(e: unknown): TransportResult {
  const err = e as SmtpError;
  const error =
    `${err.code ?? 'ERROR'}${err.responseCode ? ` ${err.responseCode}` : ''}: ${err.message}`.slice(0, 500);
  // The server answered: its answer is definite either way.
  if (typeof err.responseCode === 'number') {
    if (err.responseCode >= 400 && err.responseCode < 500) return { kind: 'transient', error };
    if (err.responseCode >= 500) return { kind: 'permanent', error };
  }
  if (err.code === 'EDNS' || (err.command === 'CONN' && NEVER_CONNECTED.test(err.message)))
    return { kind: 'transient', error };
  if (err.code === 'EENVELOPE' && err.command === 'API') return { kind: 'permanent', error };
  // Anything else may have happened after the message was handed over.
  return { kind: 'unknown', error };
}

export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl, {});
  // Timeouts, whatever the URL says.
  Object.assign(transporter.options as Record<string, unknown>, {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    mode: 'smtp',
    async send(mail: OutgoingMail): Promise<TransportResult> {
      try {
        const info = await transporter.sendMail({
          messageId: mail.messageId,
          from: mail.from,
          to: [...mail.to],
          ...(mail.replyTo !== undefined && { replyTo: mail.replyTo }),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        return {
          kind: 'sent',
          accepted: (info.accepted ?? []).map(String),
          rejected: (info.rejected ?? []).map(String),
        };
      } catch (e) {
        return classifySmtpError(e);
      }
    },
  };
}

/** Without SMTP_URL: every message is written to the log (as info) and counts as handled. */
export function createLogTransport(logger: Logger): MailTransport {
  return {
    mode: 'log',
    async send(mail) {
      logger.info(
        {
          mail: {
            messageId: mail.messageId,
            from: mail.from,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
          },
        },
        'mail not sent (no SMTP_URL configured): logged instead',
      );
      return { kind: 'sent', accepted: [...mail.to], rejected: [] };
    },
  };
}
