// OpenAPI paths of the assistant's thread and plan routes (docs/assistant.md), from the same zod schemas
// the catalogue operations use (the openapi-routes test checks every route is listed).
import {
  confirmPlan,
  decideActions,
  deleteThread,
  listThreads,
  readThread,
  type Operation,
} from '@tributary/services';
import {
  aliasOperationId,
  openApiJson as json,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

const answer = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', required: ['result'], properties: { result: { type: 'object' } } },
    },
  },
});
const asAny = (op: unknown) => op as Operation<unknown, unknown>;
type Props = { properties?: Record<string, unknown>; required?: string[] };

/** The operation's input: `inPath` members as path parameters, the rest as query parameters or body. */
function route(op: Operation<unknown, unknown>, o: { inPath: string[]; body: boolean; description: string }) {
  const schema = json(op.input) as Props;
  const props = Object.entries(schema.properties ?? {});
  const parameters = props
    .filter(([name]) => o.inPath.includes(name) || !o.body)
    .map(([name, s]) => ({
      name,
      in: o.inPath.includes(name) ? 'path' : 'query',
      required: o.inPath.includes(name) || (schema.required ?? []).includes(name),
      schema: s,
    }));
  const bodyProps = Object.fromEntries(props.filter(([name]) => !o.inPath.includes(name)));
  return {
    operationId: aliasOperationId(op.name),
    summary: op.description,
    tags: ['assistant'],
    security: session,
    ...(parameters.length > 0 && { parameters }),
    ...(o.body && {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: bodyProps,
              required: (schema.required ?? []).filter((n) => !o.inPath.includes(n)),
              additionalProperties: false,
            },
          },
        },
      },
    }),
    responses: { '200': answer(o.description), default: problem },
  };
}

export function assistantPlanPaths() {
  return {
    '/api/autobot/threads': {
      get: route(asAny(listThreads), {
        inPath: [],
        body: false,
        description:
          '{ threads: [{ threadId, title, startedAt, lastActivityAt, messageCount }], nextBefore }',
      }),
    },
    '/api/autobot/threads/{threadId}': {
      get: route(asAny(readThread), {
        inPath: ['threadId'],
        body: false,
        description:
          '{ thread, messages: [{ …, text, notes, plan: { planId, hash, status, steps } | null }], nextAfter }. An assistant message’s `text` is the model’s words; `notes` ([{ kind, text }]) are Tributary’s own statements about the turn (what ran, what the plan holds, what was declined, what came from outside).',
      }),
      delete: route(asAny(deleteThread), {
        inPath: ['threadId'],
        body: false,
        description: '{ threadId, deleted: true }',
      }),
    },
    '/api/autobot/threads/{threadId}/messages/{messageId}/actions': {
      patch: route(asAny(decideActions), {
        inPath: ['threadId', 'messageId'],
        body: true,
        description:
          'The plan after the decision: { planId, hash, status, steps: [{ step, tool, title, status, errorCode, summary, events }], resumed, ranNow, incomplete, reply }. `reply` is Tributary’s statement of what became of each step, in words: { text, lines: [{ step, status, text }], links: [{ label, href }] } (links to what was made or changed).',
      }),
    },
    '/api/autobot/confirm': {
      post: route(asAny(confirmPlan), {
        inPath: [],
        body: true,
        description:
          'What became of every step: { planId, hash, status, steps: [{ step, tool, title, status, errorCode, summary, events }], resumed, ranNow, incomplete, reply }. `reply` is Tributary’s statement of what became of each step, in words: { text, lines: [{ step, status, text }], links: [{ label, href }] } (links to what was made or changed).',
      }),
    },
  };
}
