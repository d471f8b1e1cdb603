// OpenAPI paths of the assistant's REST routes under /api/autobot (docs/assistant.md), from the same zod
// schemas the catalogue operations use. Every route is listed here (the openapi-routes test checks it).
import { chat, chatOutput, jsonSchemaOf } from '@tributary/services';
import type { z } from 'zod';
import { problemResponse as problem } from '../http/index.js';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'input') => jsonSchemaOf(schema, io);

function chatPath() {
  const input = json(chat.input);
  const properties = (input.properties as Record<string, unknown> | undefined) ?? {};
  return {
    post: {
      operationId: 'assistant.chat',
      summary: 'Talk to the assistant (svc.assistant.chat)',
      description:
        `${chat.description} The answer is \`{ result }\` as one JSON body, or server-sent events when ` +
        '`stream` is true or the request accepts `text/event-stream`: `delta` events (`{ text }`, the model’s ' +
        'text as it arrives), then one `message` event (`{ result }`, as the JSON answer) or one `error` event ' +
        '(a problem document; nothing was recorded), with `: keep-alive` comments meanwhile. A turn refused ' +
        'before anything was streamed answers an ordinary problem document. The request is bounded by ' +
        'ASSISTANT_CHAT_TIMEOUT_MS; a client that goes away cancels the model call, and nothing is recorded.',
      tags: ['assistant'],
      security: [{ session: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              ...input,
              properties: {
                ...properties,
                stream: { type: 'boolean', description: 'answer as server-sent events' },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The assistant’s reply and its proposed plan (nothing in it has run)',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['result'],
                properties: { result: json(chatOutput, 'output') },
              },
            },
            'text/event-stream': { schema: { type: 'string' } },
          },
        },
        default: problem,
      },
    },
  };
}

export function assistantPaths(): Record<string, unknown> {
  return { '/api/autobot/chat': chatPath() };
}
