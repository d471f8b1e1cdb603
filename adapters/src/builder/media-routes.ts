// /api/builder/media: an owner's media library (docs/builder.md#media). GET lists it, POST uploads one
// image as multipart/form-data (one `file` part; optional `targetAgentId` and `alt` fields), DELETE
// removes an item (JSON body or query parameters). Session only, like every builder route.
//
// The upload is streamed through readMultipartUpload with hard limits: the caller must be signed in before
// a byte of the body is read, a Content-Length over the limit is refused before reading, and a file that
// grows past BUILDER_MEDIA_MAX_BYTES is cut off mid-stream (413, connection closed) without being buffered
// whole. The bytes then go through svc.builder.upload_media like an MCP upload: the type is decided from
// them, never from the part's name or Content-Type.
import { domainError, invalid, unauthenticated } from '@tributary/domain';
import { deleteMedia, listMedia, uploadMedia } from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import {
  operationRoute,
  principalOf,
  readMultipartUpload,
  runOperation,
  type HttpContext,
} from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

export { MULTIPART_OVERHEAD_BYTES } from '../http/index.js';
const FIELDS = new Set(['targetAgentId', 'alt']);

export function mediaRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.get('/media', operationRoute(ctx, listMedia, { input: (req) => req.query }));
  r.post('/media', o.originCheck, upload(ctx));
  r.delete(
    '/media',
    ...o.browserWrites,
    operationRoute(ctx, deleteMedia, { input: (req) => ({ ...req.query, ...(req.body ?? {}) }) }),
  );
  return r;
}

function upload(ctx: HttpContext): RequestHandler {
  return async (req, res) => {
    const principal = await principalOf(ctx, req);
    if (principal.kind === 'anonymous') throw unauthenticated('auth.required', 'sign in first');
    const maxBytes = ctx.services.builder.media.limits.maxBytes;
    const form = await readMultipartUpload(req, res, {
      maxBytes,
      fields: FIELDS,
      tooLarge: () => tooLarge(maxBytes),
      malformed: (message) => invalid('builder.media_upload_malformed', message),
    });
    const { result } = await runOperation(
      ctx,
      uploadMedia,
      {
        content: form.file.toString('base64'),
        ...(form.filename !== undefined && { filename: form.filename }),
        ...form.fields,
      },
      principal,
    );
    res.status(result.created ? 201 : 200).json({ result });
  };
}

const tooLarge = (maxBytes: number) =>
  domainError('builder.media_too_large', 'too_large', `an upload is at most ${maxBytes} bytes`, { maxBytes });
