import { isDomainError } from '@tributary/domain';

/** The code of the DomainError a decision throws, or 'no error'; other errors propagate. */
export function codeOf(decide: () => unknown): string {
  try {
    decide();
  } catch (e) {
    if (isDomainError(e)) return e.code;
    throw e;
  }
  return 'no error';
}
