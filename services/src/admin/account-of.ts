import { normalizeEmail, notFound } from '@tributary/domain';
import type { AdminOperationServices } from './admin-operation.js';

/** The account an operator names by id, email or handle. */
export async function accountOf(services: AdminOperationServices, identifier: string) {
  const id = identifier.includes('@') ? normalizeEmail(identifier) : identifier;
  const account =
    (await services.accounts.read.accountById(id)) ?? (await services.accounts.read.accountByIdentifier(id));
  if (!account) throw notFound('account.not_found', 'no account with that id, email or handle');
  return account;
}
