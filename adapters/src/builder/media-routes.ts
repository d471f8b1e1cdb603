// /api/builder/media: an owner's media library (docs/builder.md#media). GET lists it, POST uploads one
// image as multipart/form-data (one `file` part; optional `targetAgentId` and `alt` fields), DELETE
// removes an item (JSON body or query parameters). Session only, like every builder route.
//
// The upload is streamed through busboy with hard limits: the caller must be signed in before a byte of
// the body is read, a Content-Length over the limit is refused before reading, and a file that grows past
// BUILDER_MEDIA_MAX_BYTES is cut off mid-stream (413, connection closed) without being buffered whole.
// The bytes then go through svc.builder.upload_media like an MCP upload: the type is decided from them,
// never from the part's name or Content-Type.
import { domainError, invalid, unauthenticated } from '@tributary/domain';
import { deleteMedia, listMedia, uploadMedia } from '@tributary/services';
import busboy from 'busboy';
import { Router, type Request, type RequestHandler } from 'express';
import { operationRoute, principalOf, runOperation, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

/** Room for the boundaries, part headers and the small fields beside the file. */
export const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
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
    if (!req.is('multipart/form-data'))
      throw invalid('builder.media_upload_malformed', 'send the image as multipart/form-data');
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes + MULTIPART_OVERHEAD_BYTES) {
      res.setHeader('Connection', 'close');
      throw tooLarge(maxBytes);
    }
    const form = await readForm(req, maxBytes).catch((e: unknown) => {
      // What is left of the body is not read: the connection closes once the answer is sent.
      res.setHeader('Connection', 'close');
      throw e;
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

interface UploadForm {
  file: Buffer;
  filename: string | undefined;
  fields: Record<string, string>;
}

/** The one file part and the known fields, or a refusal as soon as the stream breaks a rule. */
function readForm(req: Request, maxBytes: number): Promise<UploadForm> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // Browsers send a UTF-8 filename as is; busboy would read it as Latin-1 otherwise.
        defParamCharset: 'utf8',
        limits: {
          files: 1,
          fileSize: maxBytes,
          fields: FIELDS.size,
          fieldSize: 2000,
          parts: 1 + FIELDS.size,
        },
      });
    } catch {
      return reject(invalid('builder.media_upload_malformed', 'a multipart body needs its boundary'));
    }
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      bb.removeAllListeners();
      bb.on('error', () => {});
      reject(e);
    };
    const malformed = (message: string) => fail(invalid('builder.media_upload_malformed', message));
    const chunks: Buffer[] = [];
    let file: { filename: string | undefined } | undefined;
    const fields: Record<string, string> = {};

    bb.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.resume();
        return malformed(name === 'file' ? 'one file per upload' : `unexpected part ${name}`);
      }
      file = { filename: info.filename };
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(tooLarge(maxBytes)));
    });
    bb.on('field', (name, value, info) => {
      if (!FIELDS.has(name) || name in fields || info.valueTruncated)
        return malformed(`unexpected or oversized field ${name}`);
      fields[name] = value;
    });
    bb.on('filesLimit', () => malformed('one file per upload'));
    bb.on('fieldsLimit', () => malformed('too many fields'));
    bb.on('partsLimit', () => malformed('too many parts'));
    bb.on('error', () => malformed('the multipart body could not be read'));
    bb.on('close', () => {
      if (settled) return;
      if (!file) return malformed('no file part named "file"');
      settled = true;
      resolve({ file: Buffer.concat(chunks), filename: file.filename, fields });
    });
    req.on('aborted', () => malformed('the upload was cut off'));
    req.pipe(bb);
  });
}
