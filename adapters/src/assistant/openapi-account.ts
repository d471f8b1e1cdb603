// OpenAPI paths of the connected external-assistant account's session routes (docs/assistant.md), from
// the same zod schemas the catalogue operations use.
import {
  disconnectAccount,
  listAccountModels,
  pollAccountSignIn,
  readAccount,
  startAccountSignIn,
  type Operation,
} from '@tributary/services';
import {
  openApiJson as json,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

const asAny = (op: unknown) => op as Operation<unknown, unknown>;

const answer = (op: Operation<unknown, unknown>, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['result'],
        properties: { result: op.output ? json(op.output, 'output') : { type: 'object' } },
      },
    },
  },
});

function queryParameters(op: Operation<unknown, unknown>, required = true) {
  const schema = json(op.input) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: required && (schema.required ?? []).includes(name),
    schema: s,
  }));
}

function route(
  operationId: string,
  op: Operation<unknown, unknown>,
  o: { status: string; description: string; body?: 'required' | 'optional'; query?: boolean },
) {
  return {
    operationId,
    summary: op.description,
    tags: ['assistant'],
    security: session,
    ...(o.query && { parameters: queryParameters(op, o.body === undefined) }),
    ...(o.body && {
      requestBody: {
        required: o.body === 'required',
        content: { 'application/json': { schema: json(op.input) } },
      },
    }),
    responses: { [o.status]: answer(op, o.description), default: problem },
  };
}

export function assistantAccountPaths(): Record<string, unknown> {
  return {
    '/api/autobot/codex': {
      get: route('autobot.codex.read', asAny(readAccount), {
        status: '200',
        description: 'The connected account (or `connected: false`), never a token',
        query: true,
      }),
      delete: route('autobot.codex.disconnect', asAny(disconnectAccount), {
        status: '200',
        description: 'Disconnected: revoked at the provider where it offers revocation, the tokens forgotten',
        body: 'optional',
        query: true,
      }),
    },
    '/api/autobot/codex/device': {
      post: route('autobot.codex.device', asAny(startAccountSignIn), {
        status: '201',
        description: 'A device sign-in started: the user code and where to enter it',
        body: 'optional',
      }),
    },
    '/api/autobot/codex/device/poll': {
      post: route('autobot.codex.device.poll', asAny(pollAccountSignIn), {
        status: '200',
        description:
          '`pending` (authorization_pending), `slow_down` (interval +5 s) or `connected`; denied and expired are 403 assistant.sign_in_denied and 400 assistant.sign_in_expired',
        body: 'required',
      }),
    },
    '/api/autobot/codex/models': {
      get: route('autobot.codex.models', asAny(listAccountModels), {
        status: '200',
        description: 'The models available through the connected account',
        query: true,
      }),
    },
  };
}
