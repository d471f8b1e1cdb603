// A plan's hash: SHA-256 (hex) of the RFC 8785 (JCS) text of what decides what runs, as whom
// (`planHashInput` in the domain). The person confirms this hash; a step runs only if the plan still has it.
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';
import { planHashInput } from '@tributary/domain';

// CommonJS whose typings declare an ES default export; at run time the default import is the function.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

export function planHash(plan: Parameters<typeof planHashInput>[0]): string {
  const text = canonicalize(planHashInput(plan));
  if (text === undefined) throw new TypeError('the plan has no JSON form');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
