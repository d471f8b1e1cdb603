// The site builder (docs/builder.md): previews, serving sites, custom domains, media and forms.
import { ipList, rateLimit, type ConfigCheck } from './fields.js';
import { FORM_LIMITS } from '@tributary/domain';
import { MEDIA_MAX_BYTES_CEILING } from '@tributary/services';
import { z } from 'zod';
import { DEFAULT_MEDIA_LIMITS } from '../builder/sharp-media-processor.js';

export const builderVariables = {
  // How long a site preview URL stays valid (docs/builder.md#publishing).
  BUILDER_PREVIEW_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  // Published sites (docs/builder.md#serving): addresses are `<label>.<SITES_DOMAIN>` (a wildcard DNS
  // name pointing at this instance; *.localhost resolves to loopback in browsers, hence the default).
  SITES_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .transform((v) => v.replace(/\.$/, ''))
    .pipe(
      z
        .string()
        .max(200)
        .regex(
          /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
          'SITES_DOMAIN: a DNS name such as sites.example.org (no scheme, port or wildcard)',
        ),
    )
    .default('sites.localhost'),
  // The site server's in-memory cache of file bytes; a file over an eighth of it is never cached.
  SITES_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(8 * 1024 * 1024 * 1024)
    .default(64 * 1024 * 1024),
  // How long browsers and proxies may reuse a page before revalidating it (hashed assets: a year). 0, the
  // default, revalidates every visit (no-cache with the content's ETag: a cheap 304), so a publish or a
  // rollback is seen at once; more suits a site behind a CDN that is told of publishes some other way.
  SITES_PAGE_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
  // How often each process compares the sites' change counts, beside LISTEN/NOTIFY.
  SITES_CHANGE_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  // Custom domains (docs/builder.md#domains). The resolvers their records are checked on
  // (`host`, `host:port` or `[v6]:port`, comma separated; unset: the system's), each query's timeout,
  // how often every binding is checked again (0: never on a schedule), and how long a binding that has
  // not verified holds its name against other sites.
  DNS_RESOLVERS: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.split(',').map((s) => s.trim()) : []))
    .refine(
      (v) => v.every((s) => /^(?:[0-9.]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$|^[0-9a-f:]+$/i.test(s)),
      'DNS_RESOLVERS: IP addresses with optional ports, e.g. 127.0.0.1:5353, [::1]:53',
    ),
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2000),
  DOMAIN_RECHECK_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(3600),
  // Where the re-check runs: BullMQ on REDIS_URL (auto, when set) or an in-process timer.
  DOMAIN_RECHECK_QUEUE: z.enum(['auto', 'bullmq', 'in-process']).default('auto'),
  DOMAIN_CLAIM_HOLD_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 3600)
    .default(7 * 24 * 3600),
  // Where bound names point: a subdomain's CNAME names DOMAIN_CNAME_TARGET (default: BASE_URL's host),
  // an apex's A/AAAA hold SITES_PUBLIC_IPV4/IPV6 (comma separated; unset: what the target resolves to).
  DOMAIN_CNAME_TARGET: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}\.?$/,
      'DOMAIN_CNAME_TARGET: a host name',
    )
    .transform((v) => v.replace(/\.$/, ''))
    .optional(),
  SITES_PUBLIC_IPV4: ipList('SITES_PUBLIC_IPV4', 4),
  SITES_PUBLIC_IPV6: ipList('SITES_PUBLIC_IPV6', 6),
  // Caddy's on-demand TLS `ask` (GET /api/builder/tls-ask): Caddy asks once per new name it is sent.
  RATE_LIMIT_TLS_ASK: rateLimit('RATE_LIMIT_TLS_ASK', '1200/min'),
  // The builder's image uploads (docs/builder.md#media): bytes of one upload, pixels of one image (every
  // frame of an animation counted: the guard on what is decoded at all), its width or height, and the
  // long edge a larger picture is scaled down to on the way in.
  BUILDER_MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(MEDIA_MAX_BYTES_CEILING)
    .default(DEFAULT_MEDIA_LIMITS.maxBytes),
  BUILDER_MEDIA_MAX_PIXELS: z.coerce
    .number()
    .int()
    .min(1)
    .max(268_402_689)
    .default(DEFAULT_MEDIA_LIMITS.maxPixels),
  BUILDER_MEDIA_MAX_DIMENSION: z.coerce
    .number()
    .int()
    .min(1)
    .max(65_535)
    .default(DEFAULT_MEDIA_LIMITS.maxDimension),
  BUILDER_MEDIA_LONG_EDGE: z.coerce
    .number()
    .int()
    .min(256)
    .max(16_383)
    .default(DEFAULT_MEDIA_LIMITS.longEdge),
  // Public form submissions on published sites (docs/builder.md#forms-and-submissions): per client
  // address and form, and the most a submission's body may hold.
  BUILDER_FORM_SUBMISSIONS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(5),
  BUILDER_FORM_SUBMISSIONS_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(50),
  BUILDER_FORM_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(FORM_LIMITS.submissionBytes * 4)
    .default(FORM_LIMITS.submissionBytes),
};

export const builderChecks: ConfigCheck<{ DOMAIN_RECHECK_QUEUE: string; REDIS_URL?: string | undefined }>[] =
  [
    {
      holds: (c) => c.DOMAIN_RECHECK_QUEUE !== 'bullmq' || !!c.REDIS_URL,
      path: 'DOMAIN_RECHECK_QUEUE',
      message: 'DOMAIN_RECHECK_QUEUE=bullmq needs REDIS_URL',
    },
  ];
