// OpenAPI paths of the assistant's attachment route (docs/assistant.md#attachments).
import {
  addAttachment,
  ATTACHMENT_MAX_BYTES_CEILING,
  jsonSchemaOf,
  type Operation,
} from '@tributary/services';
import { aliasOperationId, MULTIPART_OVERHEAD_BYTES } from '../http/index.js';
import { problemResponse as problem } from '../http/index.js';

export function assistantAttachmentPaths(): Record<string, unknown> {
  const op = addAttachment as unknown as Operation<unknown, unknown>;
  const answer = (description: string) => ({
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['result'],
          properties: { result: jsonSchemaOf(op.output!, 'output') },
        },
      },
    },
  });
  return {
    '/api/autobot/attachments': {
      post: {
        operationId: aliasOperationId(op.name),
        summary:
          op.description +
          ' The body is multipart/form-data: one `file` part (its bytes decide the type) and an optional ' +
          '`targetAgentId` field, nothing else. A file over ASSISTANT_ATTACHMENT_MAX_BYTES (5 MiB by default, ' +
          `at most ${ATTACHMENT_MAX_BYTES_CEILING}), or a body declaring more than that plus ` +
          `${MULTIPART_OVERHEAD_BYTES} bytes, is 413 assistant.attachment_too_large and the connection closes.`,
        tags: ['assistant'],
        security: [{ session: [] }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: {
                    type: 'string',
                    format: 'binary',
                    description: 'the picture: PNG, JPEG, WebP or GIF',
                  },
                  targetAgentId: {
                    type: 'string',
                    format: 'uuid',
                    description: 'the agent or persona acted for: the attachment is theirs',
                  },
                },
              },
              encoding: { file: { contentType: 'image/png, image/jpeg, image/webp, image/gif' } },
            },
          },
        },
        responses: {
          '201': answer(
            '{ result: { attachmentId, mediaType, width, height, bytes } }: the attachment recorded',
          ),
          '200': answer('the same, when the owner had already handed over this very picture'),
          default: problem,
        },
      },
    },
  };
}
