// The mail area's ports (docs/mail.md): SMTP_URL's transport or the log, the rates, the consumer's
// cursor, the requests' read model and (tests only) a crash around the SMTP transaction.
import { createMailReadModels } from '@tributary/projections';
import type { MailPorts } from '@tributary/services';
import { createHmac } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import {
  createLogTransport,
  createPgMailCursor,
  createPgMailLimiter,
  createPgSubmissionNoticeCursor,
  createSmtpTransport,
} from '../mail/index.js';
import { loadOrCreateSecretKey } from '../assistant/secret-key.js';
import { assistantSecretKeyPath } from './compose-assistant-account.js';
import { startMailRunner, type MailRunner } from '../mail/mail-runner.js';
import { defineArea } from './area.js';

/** MAIL_FROM, or no-reply at BASE_URL's host. */
export const mailFromOf = (config: Config): string =>
  config.MAIL_FROM ??
  `${config.INSTANCE_NAME.replace(/[^\w .-]/g, '')} <no-reply@${new URL(config.BASE_URL).hostname}>`;

export function composeMail(o: { pool: pg.Pool; config: Config; logger: Logger }): MailPorts {
  const { pool, config, logger } = o;
  const failpoints = config.NODE_ENV === 'test' ? config.TRIBUTARY_FAILPOINTS : [];
  const kill = () => process.kill(process.pid, 'SIGKILL');
  // The instance's secret key (ASSISTANT_SECRET_KEY or keys/assistant-secrets.key, never in the database),
  // under its own label so these tokens are unrelated to anything else made with it.
  const secret = loadOrCreateSecretKey(
    config.ASSISTANT_SECRET_KEY,
    assistantSecretKeyPath(config.TRIBUTARY_DATA_DIR),
  );
  if (secret.created) logger.info('created the instance secret key');
  return {
    transport: config.SMTP_URL ? createSmtpTransport(config.SMTP_URL) : createLogTransport(logger),
    limiter: createPgMailLimiter(pool),
    cursor: createPgMailCursor(pool),
    submissionCursor: createPgSubmissionNoticeCursor(pool),
    read: createMailReadModels(pool),
    settings: {
      from: mailFromOf(config),
      perPeerPerHour: config.MAIL_RATE_PER_PEER_PER_HOUR,
      perRecipientPerHour: config.MAIL_RATE_PER_RECIPIENT_PER_HOUR,
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      retryBaseMs: config.MAIL_RETRY_BASE_MS,
      tokenSeconds: config.MAIL_TOKEN_SECONDS,
      submissionQuietMs: config.SUBMISSION_MAIL_QUIET_SECONDS * 1000,
    },
    linkToken: (requestKey) =>
      createHmac('sha256', secret.key).update(`mail-link-token\0${requestKey}`).digest('base64url'),
    // A real crash (SIGKILL, no cleanup) before a request's attempt is claimed, or once the SMTP server
    // accepted the message and before its outcome is on the log.
    failpoints: {
      ...(failpoints.includes('mail.send.before-claim') && { beforeClaim: kill }),
      ...(failpoints.includes('mail.send.after-accept') && { afterAccepted: kill }),
      ...(failpoints.includes('mail.notice.after-queue') && { afterNoticeQueued: kill }),
    },
  };
}

/** Mail: its ports, and the consumer that sends requests once sequenced (docs/mail.md#guarantees). */
export const mailArea = defineArea((ctx) => {
  const mail = composeMail(ctx);
  let runner: MailRunner | null = null;
  ctx.sequencer.onSequenced(() => runner?.poke());
  return {
    services: { mail },
    runners: [
      {
        name: 'mail',
        start() {
          runner = startMailRunner({
            pool: ctx.pool,
            services: ctx.services(),
            logger: ctx.logger,
            pollMs: ctx.config.MAIL_POLL_MS,
          });
          ctx.logger.info({ delivery: mail.transport.mode }, 'mail consumer started');
        },
        async stop() {
          await runner?.stop();
          runner = null;
        },
      },
    ],
    handles: {
      /** The mail consumer, once `serve` or `work` started it (null otherwise). */
      get mail(): MailRunner | null {
        return runner;
      },
    },
  };
});
