// /api/builder/media: an owner's media library (docs/builder.md#media). GET lists it, POST uploads one
// image as multipart/form-data (one `file` part; optional `targetAgentId` and `alt` fields), DELETE
// removes an item (JSON body or query parameters). Session only, like every builder route.
//
// The upload is streamed through readMultipartUpload with hard limits: the caller must be signed in before
// a byte of the body is read, a Content-Length over the limit is refused before reading, and a file that
// grows past BUILDER_MEDIA_MAX_BYTES is cut off mid-stream (413, connection closed) without being buffered
// whole. The bytes then go through svc.builder.upload_media like an MCP upload: the type is decided from
// them, never from the part's name or Content-Type.
import {
  domainError,
  invalid,
  mediaTooLargeMessage,
  notFound,
  unauthenticated,
  uuidSchema,
} from '@tributary/domain';
import {
  deleteMedia,
  listMedia,
  mediaThumbnail,
  readMedia,
  THUMBNAIL_SIZES,
  uploadMedia,
  type ThumbnailSize,
} from '@tributary/services';
import { z } from 'zod';
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
  r.get('/media/item', operationRoute(ctx, readMedia, { input: (req) => req.query }));
  r.get('/media/thumbnail', thumbnail(ctx));
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
      req,
    );
    res.status(result.created ? 201 : 200).json({ result });
  };
}

/** The thumbnail route's query: svc.builder.read_media's input and the size. */
export const thumbnailQuery = z.strictObject({
  targetAgentId: z.string().optional(),
  mediaId: uuidSchema,
  size: z
    .enum(THUMBNAIL_SIZES.map(String) as [string, ...string[]])
    .default('256')
    .describe('the longer side in pixels: 64, 128, 256 (the default) or 512'),
});

// GET /api/builder/media/thumbnail: a small WebP of one of the owner's pictures, for the pages' picker.
// svc.builder.read_media decides who may see it (the owner, or whoever controls the owning persona;
// anyone else gets the same 404 as for no item at all) before a byte is read. The answer is always a
// WebP re-encoded from the stored raster image — never the stored file as it is, never SVG — served
// with nosniff and a sandboxing CSP, cached privately and revalidated by its ETag (the item's bytes and
// the size: the same URL never changes content while the item lives).
function thumbnail(ctx: HttpContext): RequestHandler {
  return async (req, res) => {
    const parsed = thumbnailQuery.safeParse(req.query);
    if (!parsed.success)
      throw invalid('input.invalid', 'mediaId (a UUID), targetAgentId? and size (64, 128, 256 or 512)', {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    const { size, ...input } = parsed.data;
    const { result: item } = await runOperation(ctx, readMedia, input, req);
    const side = Number(size) as ThumbnailSize;
    const etag = `"${item.sha256.slice(0, 32)}-${side}"`;
    res.set({
      'Cache-Control': 'private, max-age=3600',
      ETag: etag,
      Vary: 'Cookie',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    const match = req.headers['if-none-match'];
    if (match && match.split(/\s*,\s*/).some((t) => t.replace(/^W\//, '') === etag)) {
      res.status(304).end();
      return;
    }
    const thumb = await mediaThumbnail(ctx.services, item, side);
    if (!thumb) throw notFound('builder.media_not_found', 'the item’s bytes are not stored here');
    res.status(200).type(thumb.contentType).setHeader('Content-Length', thumb.bytes.length);
    res.end(thumb.bytes);
  };
}

const tooLarge = (maxBytes: number) =>
  domainError('builder.media_too_large', 'too_large', mediaTooLargeMessage(maxBytes), { maxBytes });
