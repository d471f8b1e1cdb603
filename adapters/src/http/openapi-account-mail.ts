// OpenAPI paths of the account's mail routes (docs/mail.md): verification and password reset, beside
// routes/account-mail-routes.ts.
import { requestPasswordReset, resetPassword, sendVerificationEmail, verifyEmail } from '@tributary/services';
import type { Operation } from '@tributary/services';
import { openApiJson as json, problemResponse as problem } from './openapi-parts.js';

export function accountMailPaths(): Record<string, unknown> {
  const alias = (op: Operation<unknown, unknown>, status: string, security: unknown[] = []) => ({
    post: {
      // A public operation has no /api/ops route: its REST route carries its name.
      operationId: op.public ? op.name : `auth.${op.name.split('.').at(-1)}`,
      summary: `${op.title} (${op.name})`,
      description: op.description,
      tags: ['mail'],
      security,
      requestBody: { content: { 'application/json': { schema: json(op.input) } } },
      responses: {
        [status]: {
          description: '{ result }',
          ...(op.output && {
            content: {
              'application/json': { schema: { type: 'object', properties: { result: json(op.output) } } },
            },
          }),
        },
        default: problem,
      },
    },
  });
  return {
    '/api/auth/email/verification': alias(sendVerificationEmail as never, '202', [{ session: [] }]),
    '/api/auth/email/verify': alias(verifyEmail as never, '200'),
    '/api/auth/password-reset': alias(requestPasswordReset as never, '202'),
    '/api/auth/password-reset/confirm': alias(resetPassword as never, '200'),
  };
}
