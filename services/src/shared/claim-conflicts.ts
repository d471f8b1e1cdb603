import { conflict, isDomainError } from '@tributary/domain';

/**
 * A uniqueness claim is a stream that must not exist yet; when a concurrent writer claims it first the
 * store reports a stream conflict, which we name by what was claimed.
 */
export async function withClaimConflicts<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isDomainError(e) && e.code === 'log.stream_conflict') {
      const stream = String(e.details?.stream ?? '');
      if (stream.startsWith('email-'))
        throw conflict('account.email_taken', 'an account with that email already exists');
      if (stream.startsWith('handle-')) throw conflict('agent.handle_taken', 'that handle is taken');
      if (stream.startsWith('domain-'))
        throw conflict('builder.domain_taken', 'that domain was just bound to another site');
    }
    throw e;
  }
}
