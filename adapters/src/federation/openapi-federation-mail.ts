// OpenAPI paths of the peer-signed delegated mail send (docs/mail.md) and user search
// (docs/federation.md#user-search), beside mail-routes.ts and user-search-routes.ts.
import { delegatedMailAnswer, sendDelegatedMail, USER_SEARCH_MAX_LIMIT } from '@tributary/services';
import { openApiJson as json, problemResponse as problem } from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];

export function federationMailPaths(): Record<string, unknown> {
  const answer = {
    content: {
      'application/json': { schema: { type: 'object', properties: { result: json(delegatedMailAnswer) } } },
    },
  };
  return {
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
