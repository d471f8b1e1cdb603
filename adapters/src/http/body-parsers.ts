// The JSON and form body parsers every route uses: express's, held to text PostgreSQL can store
// (docs/api.md#bad-bytes). A body whose bytes are not UTF-8 (a form's, once percent-decoded), or that
// holds NUL or an unpaired surrogate (a JSON escape), is 400 `request.bad_bytes` before any handler
// reads it — never a database error, and nothing is written.
import { unstorablePath } from '@tributary/domain';
import express, { type RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { hasBadBytes } from './request-guards.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Answered by problemOf as 400 `request.bad_bytes`, as body-parser's own errors are, by their `type`. */
export const BAD_BYTES_TYPE = 'entity.bad_bytes';
const badBytes = (where: string) =>
  Object.assign(new Error(`the body holds ${where}`), { type: BAD_BYTES_TYPE, status: 400 });

const jsonBytesAreUtf8 = (_req: IncomingMessage, _res: unknown, buf: Buffer) => {
  try {
    UTF8.decode(buf);
  } catch {
    throw badBytes('bytes that are not UTF-8');
  }
};

const formBytesAreText = (_req: IncomingMessage, _res: unknown, buf: Buffer) => {
  if (hasBadBytes(buf.toString('latin1'))) throw badBytes('NUL or bytes that are not UTF-8');
};

/** After a parser: refuses a parsed body holding a string (or key) no text column can hold. */
export const refuseUnstorableBody: RequestHandler = (req, _res, next) => {
  const at = unstorablePath(req.body);
  if (at !== null) return next(badBytes(`NUL or an unpaired surrogate${at ? ` at ${at}` : ''}`));
  next();
};

type JsonOptions = NonNullable<Parameters<typeof express.json>[0]>;
type FormOptions = NonNullable<Parameters<typeof express.urlencoded>[0]>;

/** A parser, then the check of what it parsed: one handler, a drop-in for the parser alone. */
const checked =
  (parse: RequestHandler): RequestHandler =>
  (req, res, next) =>
    parse(req, res, (err?: unknown) => (err ? next(err) : refuseUnstorableBody(req, res, next)));

/** `express.json`, refusing bad bytes (see above). */
export const jsonBodyParser = (o: Omit<JsonOptions, 'verify'>): RequestHandler =>
  checked(express.json({ ...o, verify: jsonBytesAreUtf8 }));

/** `express.urlencoded`, refusing bad bytes (see above). */
export const formBodyParser = (o: Omit<FormOptions, 'verify'>): RequestHandler =>
  checked(express.urlencoded({ ...o, verify: formBytesAreText }));
