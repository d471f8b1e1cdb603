// OpenAPI paths of transactional mail (docs/mail.md): the peer-signed delegated send.
import { delegatedMailAnswer, sendDelegatedMail } from '@tributary/services';
import { openApiJson as json, problemResponse as problem } from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];

export function mailPaths(): Record<string, unknown> {
  const answer = {
    content: {
      'application/json': { schema: { type: 'object', properties: { result: json(delegatedMailAnswer) } } },
    },
  };
  return {
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
