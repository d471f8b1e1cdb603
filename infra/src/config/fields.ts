// The kinds of value several areas' variables share.
import { isIP } from 'node:net';
import { z } from 'zod';

/** `<count>/<s|min|h>` (e.g. `300/min`) or `off`: a per-address rate limit (adapters rate-limit.ts). */
export const rateLimit = (name: string, fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const t = v.trim().toLowerCase();
      if (t === 'off') return null;
      const m = /^(\d{1,9})\s*\/\s*(s|sec|second|min|minute|h|hour)$/.exec(t);
      const count = m ? Number(m[1]) : 0;
      if (!m || count < 1) {
        ctx.addIssue({
          code: 'custom',
          message: `${name}: <count>/<s|min|h> (count ≥ 1), e.g. ${fallback}, or off`,
        });
        return z.NEVER;
      }
      const perSeconds = m[2]!.startsWith('s') ? 1 : m[2]!.startsWith('m') ? 60 : 3600;
      return { count, perSeconds };
    });

/**
 * A rule between variables, checked once each variable is valid on its own: `holds` names only the
 * variables it reads; `path` is the one to fix. An area's rules sit beside its variables.
 */
export interface ConfigCheck<T> {
  path: string;
  message: string;
  holds: (c: T) => boolean;
}

/** An optional variable set to '' (as compose files do for "none") counts as unset. */
export const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

/** A comma-separated list of IP addresses of one family. */
export const ipList = (name: string, family: 4 | 6) =>
  z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.split(',').map((s) => s.trim().toLowerCase()) : []))
    .refine((v) => v.every((ip) => isIP(ip) === family), `${name}: IPv${family} addresses, comma separated`);

/**
 * Express's `trust proxy`: `true` is one proxy in front (the address it connected from is the client's
 * as that proxy reports it); a number is that many proxies; otherwise addresses or subnets of the
 * proxies (`loopback, 10.0.0.0/8`). Never "trust everything": the left-most X-Forwarded-For entry is
 * whatever the client wrote, and per-address limits would count that.
 */
export const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): boolean | number | string => {
    const t = (v ?? '').trim().toLowerCase();
    if (t === '' || t === 'false' || t === '0' || t === 'no') return false;
    if (t === 'true' || t === '1' || t === 'yes') return 1;
    if (/^\d{1,2}$/.test(t)) return Number(t);
    const parts = t.split(',').map((p) => p.trim());
    const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
    if (parts.every((p) => named.has(p) || /^[0-9a-f:.]+(\/\d{1,3})?$/.test(p))) return parts.join(',');
    ctx.addIssue({
      code: 'custom',
      message: 'TRUST_PROXY: true, a number of proxies, or proxy addresses/subnets (loopback, 10.0.0.0/8)',
    });
    return z.NEVER;
  });
