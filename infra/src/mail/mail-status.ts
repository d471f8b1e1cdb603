// The mail area's part of `tributary status` (docs/cli.md#status): where messages go and how many wait
// or failed, from the mail requests' read model.
import { defineStatusPart, where } from '../cli/status-part.js';

export interface MailStatus {
  delivery: 'smtp' | 'log';
  server: string | null;
  waiting: number;
  failed: number;
}

export const mailStatus = defineStatusPart({
  key: 'mail',
  none: null as MailStatus | null,
  place: 'runs',
  async read(r) {
    const smtp = r.setting('SMTP_URL');
    const byStatus = (
      await r.query<{ status: string; n: string }>(
        `SELECT status, count(*) AS n FROM rm_mail_requests GROUP BY status`,
      )
    ).reduce<Record<string, number>>((m, row) => ({ ...m, [row.status]: Number(row.n) }), {});
    const mail: MailStatus = {
      delivery: smtp ? 'smtp' : 'log',
      server: smtp ? where(smtp) : null,
      waiting: (byStatus.pending ?? 0) + (byStatus.sending ?? 0) + (byStatus.retrying ?? 0),
      failed: (byStatus.failed ?? 0) + (byStatus.unknown ?? 0),
    };
    if (!smtp) r.warn('no mail server (SMTP_URL): messages are written to the log, not sent');
    if (mail.failed > 0) r.warn(`${mail.failed} mail messages failed`);
    return mail;
  },
  print(mail, print) {
    if (mail)
      print(
        `mail       ${mail.delivery === 'smtp' ? `sent through ${mail.server}` : 'no mail server: written to the log'}; ${mail.waiting} waiting, ${mail.failed} failed`,
      );
  },
});
