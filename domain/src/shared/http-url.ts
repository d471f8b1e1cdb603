// Every URL this instance stores to show or follow (avatars, base URLs, local or from a peer) is an
// absolute http(s) URL: `javascript:`, `data:` and the like run or mislead wherever they are shown.
import { z } from 'zod';

/**
 * http(s)://, a host without credentials (`https://bank.example@evil.example` misleads the reader),
 * then a path, query or fragment; no whitespace or control characters anywhere (browsers strip them,
 * so what is shown would differ from what is stored).
 */
// eslint-disable-next-line no-control-regex
const HTTP_URL_SHAPE = /^https?:\/\/[^\s\u0000-\u001f\u007f@/?#\\]+(?:[/?#][^\s\u0000-\u001f\u007f]*)?$/i;
/** Parses as a WHATWG URL with an http(s) scheme and a host (zod checks with `new URL`). */
const parsesAsHttpUrl = z.url({ protocol: /^https?$/ });

export const isHttpUrl = (value: string): boolean =>
  HTTP_URL_SHAPE.test(value) && parsesAsHttpUrl.safeParse(value).success;

/** The one schema for such URLs: commands, event data (ours and imported) and configuration use it. */
export const httpUrlSchema = (maxLength = 2000) =>
  z
    .string()
    .max(maxLength)
    .refine(isHttpUrl, { message: 'must be an absolute http(s) URL without credentials' })
    .meta({ format: 'uri' });
