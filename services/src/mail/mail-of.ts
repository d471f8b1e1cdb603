import { DomainError } from '@tributary/domain';
import type { MailPorts } from './ports.js';
import type { MailOperationServices } from './mail-operation.js';

/** The mail ports, or `mail.unavailable` where this process was composed without them. */
export function mailOf(services: MailOperationServices): MailPorts {
  if (!services.mail) throw new DomainError('mail.unavailable', 'unavailable', 'mail is not composed here');
  return services.mail;
}
