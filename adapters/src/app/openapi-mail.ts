// OpenAPI paths of transactional mail (docs/mail.md): the peer-signed delegated send; and the peer-signed
// user search (docs/federation.md#user-search).
import {
  delegatedMailAnswer,
  requestPasswordReset,
  resetPassword,
  sendDelegatedMail,
  sendVerificationEmail,
  USER_SEARCH_MAX_LIMIT,
  verifyEmail,
} from '@tributary/services';
import type { Operation } from '@tributary/services';
import { openApiJson as json, problemResponse as problem } from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];

export function mailPaths(): Record<string, unknown> {
  const answer = {
    content: {
      'application/json': { schema: { type: 'object', properties: { result: json(delegatedMailAnswer) } } },
    },
  };
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
    '/api/federation/users/search': {
      get: {
        operationId: 'svc.federation.users_search',
        summary: 'A peer app searches this instance’s users (peer-signed)',
        description:
          'Local persons whose handle starts with, or whose name contains, q; public profile fields only; persons who ' +
          `opted out of discovery never appear. Paged by \`cursor\`, at most ${USER_SEARCH_MAX_LIMIT} per page.`,
        tags: ['federation'],
        security: peerSigned,
        parameters: [
          {
            name: 'q',
            in: 'query',
            required: true,
            schema: { type: 'string', minLength: 1, maxLength: 100 },
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: USER_SEARCH_MAX_LIMIT },
          },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: '{ results: [{ agentId, handle, name, bio, avatarUrl }], next: cursor | null }',
          },
          default: problem,
        },
      },
    },
    '/api/federation/email/send': {
      post: {
        operationId: sendDelegatedMail.name,
        summary: `${sendDelegatedMail.title} (peer-signed)`,
        description: sendDelegatedMail.description,
        tags: ['mail'],
        security: peerSigned,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(sendDelegatedMail.input) } },
        },
        responses: {
          '202': { description: 'Accepted: the mail consumer sends it', ...answer },
          '200': { description: 'That request key was already accepted: its current state', ...answer },
          default: problem,
        },
      },
    },
  };
}
