// POST /api/autobot/attachments: a picture handed to the assistant (docs/assistant.md#attachments), as
// multipart/form-data (one `file` part; an optional `targetAgentId` field). Session only. The upload is
// read with readMultipartUpload's hard limits — signed in before a byte of the body is read, a declared
// length over ASSISTANT_ATTACHMENT_MAX_BYTES refused before reading, a file growing past it cut off
// mid-stream — then runs svc.assistant.add_attachment like an MCP call: the type is decided from the
// bytes, never from the part's name or Content-Type.
import { domainError, invalid, unauthenticated } from '@tributary/domain';
import { addAttachment } from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { principalOf, readMultipartUpload, runOperation, type HttpContext } from '../http/index.js';

const FIELDS = new Set(['targetAgentId']);

export interface AssistantAttachmentRouteOptions {
  /** The same-origin check of every cookie-authenticated write (the body is multipart, not JSON). */
  originCheck: RequestHandler;
}

export function attachmentRoutes(ctx: HttpContext, o: AssistantAttachmentRouteOptions): Router {
  const r = Router();
  r.post('/attachments', o.originCheck, upload(ctx));
  return r;
}

function upload(ctx: HttpContext): RequestHandler {
  return async (req, res) => {
    const principal = await principalOf(ctx, req);
    if (principal.kind === 'anonymous') throw unauthenticated('auth.required', 'sign in first');
    const maxBytes = ctx.services.assistantAttachments.processor.limits.maxBytes;
    const form = await readMultipartUpload(req, res, {
      maxBytes,
      fields: FIELDS,
      tooLarge: () =>
        domainError('assistant.attachment_too_large', 'too_large', `a picture is at most ${maxBytes} bytes`, {
          maxBytes,
        }),
      malformed: (message) => invalid('assistant.attachment_upload_malformed', message),
    });
    const { result, commit } = await runOperation(
      ctx,
      addAttachment,
      { content: form.file.toString('base64'), ...form.fields },
      principal,
      req,
    );
    // 200 when the owner had already handed over this very picture: the same attachment, nothing new.
    res.status((commit?.events.length ?? 0) > 0 ? 201 : 200).json({ result });
  };
}
