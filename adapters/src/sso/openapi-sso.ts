// OpenAPI paths of single sign-on (docs/sso.md).
import {
  delegatedSignUp,
  delegatedSiteAccount,
  issueAssertion,
  issuedAssertion,
  listRemoteSessions,
  verifyRemotePassword,
} from '@tributary/services';
import { z } from 'zod';
import { openApiJson as json, problemResponse as problem, publicSecurity } from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];
const body = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/json': { schema: json(schema) } },
});
const result = (description: string, schema?: z.ZodType) => ({
  description,
  ...(schema && { content: { 'application/json': { schema: json(z.object({ result: schema })) } } }),
});
const limited = { description: 'Too many requests (Retry-After says when to try again)' };
const delegated = z.object({ accountId: z.string(), agentId: z.string(), created: z.boolean() });

export function ssoPaths(): Record<string, unknown> {
  return {
    '/api/federation/sso/issue': {
      post: {
        operationId: issueAssertion.name,
        security: publicSecurity,
        summary:
          'The global instance: an email-or-handle and password become a signed assertion for one registered peer',
        requestBody: body(issueAssertion.input),
        responses: { '200': result('The assertion', issuedAssertion), '429': limited, default: problem },
      },
    },
    '/api/federation/sso/land': {
      get: {
        operationId: 'svc.sso.accept_assertion',
        security: publicSecurity,
        summary:
          'Land with an assertion: verified, its nonce burned, a remote-viewer cookie set, then 303 to `next` (a same-origin path)',
        parameters: [
          { name: 'assertion', in: 'query', required: true, schema: { type: 'string', maxLength: 4096 } },
          { name: 'next', in: 'query', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '303': { description: 'Signed on; to `next` (or `/`)' },
          '429': limited,
          default: problem,
        },
      },
    },
    '/api/federation/remote-auth': {
      post: {
        operationId: 'federation_remote_auth',
        security: publicSecurity,
        summary:
          'Present an assertion in a JSON body (never the query string): sets the remote-viewer cookie',
        requestBody: body(z.strictObject({ assertion: z.string().max(4096) })),
        responses: {
          '200': result(
            'Signed on',
            z.object({
              credentialId: z.string(),
              agentId: z.string(),
              home: z.string(),
              expiresAt: z.string(),
            }),
          ),
          '429': limited,
          default: problem,
        },
      },
    },
    '/api/federation/sso/session-handoff': {
      get: {
        operationId: 'svc.sso.session_handoff',
        summary:
          'Turn the current session into an assertion for a registered peer (by default the person’s recorded home instance) and 303 to its landing',
        security: [{ session: [] }],
        parameters: [
          {
            name: 'to',
            in: 'query',
            required: false,
            description:
              'the peer’s base URL; without it, the home recorded here (else 400 sso.no_home_instance)',
            schema: { type: 'string', format: 'uri' },
          },
          { name: 'next', in: 'query', required: false, schema: { type: 'string' } },
        ],
        responses: { '303': { description: 'To the peer’s landing' }, default: problem },
      },
    },
    '/api/federation/sso/sessions': {
      get: {
        operationId: 'federation_sso_sessions',
        summary: 'Your remote sessions (a session, or the remote-viewer cookie for your own visits here)',
        security: [{ session: [] }, { remoteViewer: [] }],
        responses: { '200': result('Your remote sessions', listRemoteSessions.output), default: problem },
      },
    },
    '/api/federation/remote-password/verify': {
      post: {
        operationId: verifyRemotePassword.name,
        summary: 'Signed peers only: is this password right for an account homed here? Yes, or a generic no',
        security: peerSigned,
        requestBody: body(verifyRemotePassword.input),
        responses: { '200': result('Yes', verifyRemotePassword.output), '429': limited, default: problem },
      },
    },
    '/api/federation/signup': {
      post: {
        operationId: delegatedSignUp.name,
        summary:
          'Signed peers only, the global instance: create a delegated account (idempotent by request key)',
        security: peerSigned,
        requestBody: body(delegatedSignUp.input),
        responses: { '200': result('The account', delegated), '429': limited, default: problem },
      },
    },
    '/api/federation/site-accounts': {
      post: {
        operationId: delegatedSiteAccount.name,
        summary:
          'Signed peers only, the global instance: find or create a site visitor’s account by email (idempotent by request key)',
        security: peerSigned,
        requestBody: body(delegatedSiteAccount.input),
        responses: { '200': result('The account', delegated), '429': limited, default: problem },
      },
    },
  };
}
