// Reading one uploaded file from a multipart/form-data body, with hard limits (the builder's media and
// the assistant's attachments): the caller checks the session before a byte of the body is read, a
// Content-Length over the limit is refused before reading, and a file that grows past `maxBytes` is cut
// off mid-stream without being buffered whole. The part's name and Content-Type are never trusted: the
// bytes go on to a processor that decides the type from them.
import type { DomainError } from '@tributary/domain';
import busboy from 'busboy';
import type { Request, Response } from 'express';

/** Room for the boundaries, part headers and the small fields beside the file. */
export const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

export interface MultipartUploadRules {
  maxBytes: number;
  /** The fields allowed beside the `file` part, each at most once. */
  fields: ReadonlySet<string>;
  /** The refusal for a file over `maxBytes` (413). */
  tooLarge: () => DomainError;
  /** The refusal for a body that is not one `file` part and known fields (400). */
  malformed: (message: string) => DomainError;
}

export interface MultipartUpload {
  file: Buffer;
  filename: string | undefined;
  fields: Record<string, string>;
}

/**
 * The one `file` part and the known fields. Any refusal sets `Connection: close` on `res`: what is left of
 * the body is not read, and the connection closes once the answer is sent.
 */
export async function readMultipartUpload(
  req: Request,
  res: Response,
  rules: MultipartUploadRules,
): Promise<MultipartUpload> {
  if (!req.is('multipart/form-data')) throw rules.malformed('send the file as multipart/form-data');
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > rules.maxBytes + MULTIPART_OVERHEAD_BYTES) {
    res.setHeader('Connection', 'close');
    throw rules.tooLarge();
  }
  return readForm(req, rules).catch((e: unknown) => {
    res.setHeader('Connection', 'close');
    throw e;
  });
}

function readForm(req: Request, rules: MultipartUploadRules): Promise<MultipartUpload> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // Browsers send a UTF-8 filename as is; busboy would read it as Latin-1 otherwise.
        defParamCharset: 'utf8',
        limits: {
          files: 1,
          fileSize: rules.maxBytes,
          fields: rules.fields.size,
          fieldSize: 2000,
          // busboy reports `partsLimit` once this many parts have ended, the last allowed one included:
          // one more than the file and every field, so a form using every field is not refused.
          parts: 2 + rules.fields.size,
        },
      });
    } catch {
      return reject(rules.malformed('a multipart body needs its boundary'));
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
    const malformed = (message: string) => fail(rules.malformed(message));
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
      stream.on('limit', () => fail(rules.tooLarge()));
    });
    bb.on('field', (name, value, info) => {
      if (!rules.fields.has(name) || name in fields || info.valueTruncated)
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
