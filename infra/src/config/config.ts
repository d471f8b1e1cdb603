// Every environment variable the instance reads, validated once at start. docs/configuration.md lists them.
import { DEVELOPMENT_ALLOWED_ADDRESSES, parseAddressList } from '@tributary/adapters';
import { FORM_LIMITS, httpUrlSchema, INSTANCE_ROLES, isValidScope } from '@tributary/domain';
import { isIP } from 'node:net';
import { ATTACHMENT_MAX_BYTES_CEILING, MEDIA_MAX_BYTES_CEILING } from '@tributary/services';
import { resolve } from 'node:path';
import { secretKeyBytes } from '../assistant/secret-key.js';
import { DEFAULT_ATTACHMENT_LIMITS } from '../assistant/attachment-processor.js';
import { DEFAULT_MEDIA_LIMITS } from '../builder/sharp-media-processor.js';
import { z } from 'zod';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT } from './defaults.js';

/** `<count>/<s|min|h>` (e.g. `300/min`) or `off`: a per-address rate limit (adapters rate-limit.ts). */
/** What one `tributary start` process runs (docs/operations.md#process-roles). */
export const PROCESS_ROLES = ['all', 'api', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

const rateLimit = (name: string, fallback: string) =>
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

/** An optional variable set to '' (as compose files do for "none") counts as unset. */
const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

/** A comma-separated list of IP addresses of one family. */
const ipList = (name: string, family: 4 | 6) =>
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
const trustProxy = z
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

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
    // Loopback unless a deployment says otherwise: beyond it, the first account needs the setup code.
    HOST: z.string().min(1).default(DEFAULT_HOST),
    // Slow clients: all headers within HTTP_HEADERS_TIMEOUT_MS of the connection or of the previous
    // request; the whole request (headers and body) within HTTP_REQUEST_TIMEOUT_MS; an idle kept-alive
    // connection closed after HTTP_KEEP_ALIVE_TIMEOUT_MS. Responses (a long feed page) are not bounded.
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    BASE_URL: httpUrlSchema().optional(),
    TRIBUTARY_DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
    // `tributary start` writes where it listens there once ready (docs/cli.md): for PORT=0.
    TRIBUTARY_ADDRESS_FILE: z.string().min(1).optional(),
    DATABASE_URL: z.string().optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
    // A database host that drops packets would otherwise hold each request until the OS gives up on TCP.
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // Each statement's bound (PostgreSQL's statement_timeout): a request waiting on a held lock answers
    // 503 after it rather than for as long as the lock is held. The operator's long commands (backup,
    // restore, projections rebuild, migrate, log verify) and migrations have their own, longer one.
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
    DATABASE_LONG_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_600_000),
    REDIS_URL: z.string().optional(),
    INSTANCE_ROLE: z.enum(INSTANCE_ROLES).default('person'),
    // What this process runs (docs/operations.md#process-roles): HTTP, the background loops, or both.
    // Not INSTANCE_ROLE, which is what the instance is in the federation.
    PROCESS_ROLE: z
      .enum(PROCESS_ROLES, { message: `must be one of ${PROCESS_ROLES.join(', ')}` })
      .default('all'),
    INSTANCE_NAME: z.string().min(1).max(100).default('Tributary'),
    GLOBAL_URL: z.string().url().optional(),
    // How long a released address is held back for its previous owner.
    ADDRESS_HOLD_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    // Matrix discovery (/.well-known/matrix/client and /server): the homeserver this domain delegates to.
    MATRIX_HOMESERVER_URL: z
      .string()
      .url()
      .refine((v) => /^https?:\/\//.test(v), 'MATRIX_HOMESERVER_URL must be http(s)')
      .optional(),
    // Server-server delegation as `host[:port]`; unset: the homeserver URL's host, with its port or 443.
    MATRIX_SERVER: z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/, 'MATRIX_SERVER: host[:port]')
      .optional(),
    INSTANCE_KEY_FILE: z.string().optional(),
    INSTANCE_KEY_PASSPHRASE: z.string().optional(),
    AIAGENT_MCP_TOKEN: z.string().min(32, 'AIAGENT_MCP_TOKEN must be at least 32 characters').optional(),
    LEGACY_UNSCOPED_SUNSET: z.string().datetime({ offset: true }).optional(),
    // The static token's scopes (space or comma separated); unset or blank: every svc.<area>.<read|write>
    // scope the catalogue's tools use, never the separately granted ones.
    AIAGENT_MCP_SCOPES: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v.trim().split(/[\s,]+/) : undefined))
      .refine(
        (v) => !v || v.every(isValidScope),
        'AIAGENT_MCP_SCOPES: every entry must be a scope (svc.<area>.<read|write>, …)',
      ),
    // Browser origins besides BASE_URL's that may call /api/mcp (comma separated), e.g. an MCP inspector.
    MCP_ALLOWED_ORIGINS: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v.split(',').map((o) => o.trim().replace(/\/+$/, '')) : []))
      .refine(
        (v) => v.every((o) => URL.canParse(o) && new URL(o).origin === o),
        'MCP_ALLOWED_ORIGINS: comma-separated origins like https://app.example',
      ),
    // RFC 8628 device-flow polling interval; slow_down adds 5 s to it per too-fast poll.
    OAUTH_DEVICE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
    // OAuth lifetimes (seconds): authorization codes are short by design (OAuth 2.1 §4.1.2), access
    // tokens short-lived, refresh tokens rotate; a device code lives while a person finds the page.
    OAUTH_CODE_SECONDS: z.coerce.number().int().min(10).max(600).default(120),
    OAUTH_ACCESS_TOKEN_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(24 * 60 * 60)
      .default(60 * 60),
    OAUTH_REFRESH_TOKEN_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(365 * 24 * 60 * 60)
      .default(30 * 24 * 60 * 60),
    // A refresh-token family's whole life from its grant, however often it rotates; then the person
    // authorizes again.
    OAUTH_REFRESH_ABSOLUTE_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(730 * 24 * 60 * 60)
      .default(90 * 24 * 60 * 60),
    OAUTH_DEVICE_CODE_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
    // Client ID Metadata Documents: the whole fetch must finish within this, and be at most this big.
    OAUTH_CLIENT_METADATA_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
    OAUTH_CLIENT_METADATA_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(512)
      .max(1024 * 1024)
      .default(5 * 1024),
    SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(60 * 60 * 24 * 14),
    // Travellers (docs/spatial.md#travellers): a presentation's lifetime, and a presence's at our door.
    SPATIAL_PRESENTATION_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
    SPATIAL_PRESENCE_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
    // Single sign-on (docs/sso.md): how long an assertion this instance issues lives, how long the
    // remote-viewer credential minted from one lives, whether a sovereign delegates passwords and
    // sign-ups to the global peer, and how long it waits for the global instance's answer.
    SSO_ASSERTION_SECONDS: z.coerce.number().int().min(10).max(300).default(120),
    SSO_REMOTE_VIEWER_SECONDS: z.coerce.number().int().min(60).max(43_200).default(3600),
    SSO_DELEGATION: z.enum(['on', 'off']).default('off'),
    SSO_GLOBAL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    // How long a site preview URL stays valid (docs/builder.md#publishing).
    BUILDER_PREVIEW_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
    BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(12),
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
    SIGN_IN_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(15 * 60),
    SIGN_IN_BLOCK_SECONDS: z.coerce.number().int().min(1).default(30),
    // Every outbound HTTP call (docs/operations.md#outbound-http): which non-public addresses it may
    // reach (unset: none in production; loopback and private ranges in development and test), and its limits.
    OUTBOUND_ALLOWED_ADDRESSES: z
      .string()
      .optional()
      .superRefine((v, ctx) => {
        try {
          if (v !== undefined) parseAddressList(v);
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: (e as Error).message });
        }
      }),
    OUTBOUND_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    OUTBOUND_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    OUTBOUND_MAX_RESPONSE_BYTES: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(256 * 1024 * 1024)
      .default(16 * 1024 * 1024),
    // Federation sync (docs/federation.md#sync): on by default wherever peers are registered.
    FEDERATION_SYNC: z.enum(['on', 'off']).default('on'),
    FEDERATION_QUEUE: z.enum(['auto', 'bullmq', 'in-process']).default('auto'),
    FEDERATION_PULL_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(60),
    FEDERATION_RETRY_BASE_MS: z.coerce.number().int().min(10).default(2000),
    FEDERATION_SWEEP_MS: z.coerce.number().int().min(10).default(1000),
    FEDERATION_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    // Payments (docs/payments.md#configuration): off unless both Stripe secrets are set. STRIPE_API_BASE
    // points the stripe package elsewhere (tests: the loopback server that speaks Stripe's API).
    STRIPE_SECRET_KEY: unsetWhenEmpty(z.string().min(8).optional()),
    STRIPE_WEBHOOK_SECRET: unsetWhenEmpty(z.string().min(8).optional()),
    // The Connect endpoint's own signing secret, when Stripe's Connect webhook endpoint is a separate one.
    STRIPE_CONNECT_WEBHOOK_SECRET: unsetWhenEmpty(z.string().min(8).optional()),
    STRIPE_API_BASE: unsetWhenEmpty(httpUrlSchema().optional()),
    PAYMENTS_PAYOUT_CONFIRM_ABOVE: z.coerce.number().int().min(0).max(99_999_999).default(100_000),
    PAYMENTS_STRIPE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(20_000),
    PAYMENTS_WORKER_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
    // The assistant's plans (docs/assistant.md#limits): a confirm runs its steps within one request, with
    // a longer allowance than an ordinary request; a proposed plan waits this long for its confirmation.
    ASSISTANT_CONFIRM_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
    ASSISTANT_PLAN_TTL_SECONDS: z.coerce.number().int().min(10).max(604_800).default(900),
    // Transactional mail (docs/mail.md): with no SMTP_URL every message is logged instead of sent.
    SMTP_URL: unsetWhenEmpty(
      z.string().regex(/^smtps?:\/\//i, 'SMTP_URL: smtp://[user:pass@]host[:port] or smtps://…'),
    ),
    MAIL_FROM: z.string().trim().min(3).max(320).optional(),
    MAIL_RATE_PER_PEER_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(200),
    MAIL_RATE_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
    MAIL_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
    MAIL_TOKEN_SECONDS: z.coerce.number().int().min(60).max(604_800).default(3600),
    // Test-only fault injection (honoured only when NODE_ENV=test), comma separated.
    TRIBUTARY_FAILPOINTS: z
      .string()
      .optional()
      .transform((v) => (v?.trim() ? v.split(',').map((f) => f.trim()) : [])),
    SIGNING_LIBRARY: z.enum(['auto', 'libsodium', 'node-crypto']).default('auto'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // `auto`: words on a terminal, JSON lines otherwise (a file, a container's log collector).
    LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
    TRUST_PROXY: trustProxy,
    // GET /metrics (docs/operations.md#metrics): with a token it is the only way in; without, loopback
    // clients only. METRICS_PORT moves it to a listener of its own (then it is not on PORT at all).
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().min(1).optional(),
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
    // How long browsers and proxies may reuse a page before revalidating it (hashed assets: a year).
    SITES_PAGE_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    // How often each process compares the sites' change counts, beside LISTEN/NOTIFY.
    SITES_CHANGE_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
    // The assistant's chat turn (docs/assistant.md#limits): the thread's earlier messages sent to the
    // model (newest first, by count and by characters), model calls in one turn, and how long one chat
    // request may take as a whole (the model's answers and the reads it runs; the connection of a
    // streamed reply closes then too).
    ASSISTANT_HISTORY_MESSAGES: z.coerce.number().int().min(0).max(200).default(20),
    ASSISTANT_HISTORY_CHARS: z.coerce.number().int().min(0).max(1_000_000).default(24_000),
    ASSISTANT_TOOL_ITERATIONS: z.coerce.number().int().min(1).max(20).default(6),
    ASSISTANT_CHAT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(180_000),
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
    // Payments reconciliation with Stripe (docs/payments.md#reconciliation): how often (0: never on a
    // schedule) and how far back each run looks.
    PAYMENTS_RECONCILE_SECONDS: z.coerce
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(3600),
    PAYMENTS_RECONCILE_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(24),
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
    // Per client address (docs/operations.md#rate-limits).
    RATE_LIMIT_REGISTRATION: rateLimit('RATE_LIMIT_REGISTRATION', '20/h'),
    RATE_LIMIT_DISCOVERY: rateLimit('RATE_LIMIT_DISCOVERY', '300/min'),
    RATE_LIMIT_FEED: rateLimit('RATE_LIMIT_FEED', '600/min'),
    // Caddy's on-demand TLS `ask` (GET /api/builder/tls-ask): Caddy asks once per new name it is sent.
    RATE_LIMIT_TLS_ASK: rateLimit('RATE_LIMIT_TLS_ASK', '1200/min'),
    // Single sign-on's public and peer routes (sso/issue, sso/land, remote-auth, remote-password/verify,
    // signup, site-accounts), one budget per route family and client address.
    RATE_LIMIT_SSO: rateLimit('RATE_LIMIT_SSO', '30/min'),
    // Stripe's webhook: deliveries refused as not Stripe's (bad signature, not an event) per address;
    // past it the address is answered 429 until its budget refills. Accepted deliveries are not counted.
    RATE_LIMIT_WEBHOOK_REFUSALS: rateLimit('RATE_LIMIT_WEBHOOK_REFUSALS', '60/min'),
    // The builder's image uploads (docs/builder.md#media): bytes of one upload, pixels of one image (every
    // frame of an animation counted) and its width or height.
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
    // Pictures handed to the assistant (docs/assistant.md#attachments): bytes of one upload, pixels of
    // its first frame.
    ASSISTANT_ATTACHMENT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(ATTACHMENT_MAX_BYTES_CEILING)
      .default(DEFAULT_ATTACHMENT_LIMITS.maxBytes),
    ASSISTANT_ATTACHMENT_MAX_PIXELS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64_000_000)
      .default(DEFAULT_ATTACHMENT_LIMITS.maxPixels),
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
    // The assistant's language model (docs/assistant.md#the-model): an OpenAI-compatible API when
    // LLM_BASE_URL is set, else the built-in planner. LLM_TIMEOUT_MS bounds one whole answer.
    LLM_BASE_URL: unsetWhenEmpty(httpUrlSchema().transform((v) => v.replace(/\/+$/, ''))),
    LLM_API_KEY: unsetWhenEmpty(z.string()),
    LLM_MODEL: unsetWhenEmpty(z.string().trim().min(1).max(200)),
    LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    LLM_ACCEPTS_IMAGES: z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default('false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
    // The connected external-assistant account (docs/assistant.md#connected-account): an OpenAI-compatible
    // provider's OAuth endpoints (device authorization RFC 8628, token, revocation RFC 7009) and models
    // endpoint, the public client id registered there, and the scopes asked for. Off unless the device
    // URL, token URL and client id are all set.
    ASSISTANT_PROVIDER_NAME: z.string().trim().min(1).max(200).optional(),
    ASSISTANT_PROVIDER_DEVICE_URL: httpUrlSchema().optional(),
    ASSISTANT_PROVIDER_TOKEN_URL: httpUrlSchema().optional(),
    ASSISTANT_PROVIDER_REVOKE_URL: httpUrlSchema().optional(),
    ASSISTANT_PROVIDER_MODELS_URL: httpUrlSchema().optional(),
    // The provider's OpenAI-compatible API base URL (`…/v1`): a turn whose chosen model the connected
    // account offers is answered there, with the account's access token as the bearer.
    ASSISTANT_PROVIDER_API_URL: httpUrlSchema().optional(),
    ASSISTANT_PROVIDER_CLIENT_ID: z.string().trim().min(1).max(2000).optional(),
    ASSISTANT_PROVIDER_SCOPE: z.string().trim().max(2000).optional(),
    // An access token expiring within this many seconds is refreshed before it is used.
    ASSISTANT_REFRESH_MARGIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
    // The AES-256-GCM key of the account secrets: 32 bytes as base64, base64url or 64 hex digits. Unset:
    // a key file created in TRIBUTARY_DATA_DIR/keys (mode 0600). Never in the database.
    ASSISTANT_SECRET_KEY: z
      .string()
      .trim()
      .optional()
      .refine(
        (v) => v === undefined || secretKeyBytes(v) !== undefined,
        'ASSISTANT_SECRET_KEY: 32 bytes as base64, base64url or 64 hex digits',
      ),
  })
  .refine((c) => !c.LLM_BASE_URL || !!c.LLM_MODEL, {
    path: ['LLM_MODEL'],
    message: 'LLM_BASE_URL needs LLM_MODEL (the model to ask)',
  })
  .refine((c) => c.OAUTH_REFRESH_TOKEN_SECONDS >= c.OAUTH_ACCESS_TOKEN_SECONDS, {
    path: ['OAUTH_REFRESH_TOKEN_SECONDS'],
    message: 'must be at least OAUTH_ACCESS_TOKEN_SECONDS (a refresh token outlives its access tokens)',
  })
  .refine((c) => c.OAUTH_REFRESH_ABSOLUTE_SECONDS >= c.OAUTH_REFRESH_TOKEN_SECONDS, {
    path: ['OAUTH_REFRESH_ABSOLUTE_SECONDS'],
    message: 'must be at least OAUTH_REFRESH_TOKEN_SECONDS (a family outlives each of its refresh tokens)',
  })
  .refine((c) => c.HTTP_HEADERS_TIMEOUT_MS <= c.HTTP_REQUEST_TIMEOUT_MS, {
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
    message: 'must be at most HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
  })
  .refine(
    (c) => {
      const set = [
        c.ASSISTANT_PROVIDER_DEVICE_URL,
        c.ASSISTANT_PROVIDER_TOKEN_URL,
        c.ASSISTANT_PROVIDER_CLIENT_ID,
      ];
      const any =
        set.some((v) => v !== undefined) ||
        c.ASSISTANT_PROVIDER_REVOKE_URL !== undefined ||
        c.ASSISTANT_PROVIDER_MODELS_URL !== undefined ||
        c.ASSISTANT_PROVIDER_API_URL !== undefined;
      return !any || set.every((v) => v !== undefined);
    },
    {
      path: ['ASSISTANT_PROVIDER_DEVICE_URL'],
      message:
        'an external assistant provider needs ASSISTANT_PROVIDER_DEVICE_URL, ASSISTANT_PROVIDER_TOKEN_URL and ASSISTANT_PROVIDER_CLIENT_ID together',
    },
  )
  .refine((c) => c.METRICS_PORT === undefined || c.METRICS_PORT === 0 || c.METRICS_PORT !== c.PORT, {
    message: 'METRICS_PORT must differ from PORT (unset it to answer /metrics on PORT)',
    path: ['METRICS_PORT'],
  })
  .refine((c) => (c.STRIPE_SECRET_KEY === undefined) === (c.STRIPE_WEBHOOK_SECRET === undefined), {
    message: 'payments need STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET together',
    path: ['STRIPE_SECRET_KEY'],
  })
  .refine((c) => c.STRIPE_CONNECT_WEBHOOK_SECRET === undefined || c.STRIPE_WEBHOOK_SECRET !== undefined, {
    message: 'STRIPE_CONNECT_WEBHOOK_SECRET needs STRIPE_WEBHOOK_SECRET (and STRIPE_SECRET_KEY)',
    path: ['STRIPE_CONNECT_WEBHOOK_SECRET'],
  })
  .refine((c) => c.FEDERATION_QUEUE !== 'bullmq' || !!c.REDIS_URL, {
    message: 'FEDERATION_QUEUE=bullmq needs REDIS_URL',
    path: ['FEDERATION_QUEUE'],
  })
  .refine((c) => c.DOMAIN_RECHECK_QUEUE !== 'bullmq' || !!c.REDIS_URL, {
    message: 'DOMAIN_RECHECK_QUEUE=bullmq needs REDIS_URL',
    path: ['DOMAIN_RECHECK_QUEUE'],
  })
  .transform((c) => ({
    ...c,
    BASE_URL: (c.BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
    TRIBUTARY_DATA_DIR: resolve(c.TRIBUTARY_DATA_DIR),
    LEGACY_UNSCOPED_SUNSET: c.LEGACY_UNSCOPED_SUNSET ? new Date(c.LEGACY_UNSCOPED_SUNSET) : undefined,
    OUTBOUND_ALLOWED_ADDRESSES:
      c.OUTBOUND_ALLOWED_ADDRESSES?.split(',')
        .map((a) => a.trim())
        .filter(Boolean) ?? (c.NODE_ENV === 'production' ? [] : [...DEVELOPMENT_ALLOWED_ADDRESSES]),
  }))
  .refine(
    (c) => {
      const app = new URL(c.BASE_URL).hostname.toLowerCase();
      return app !== c.SITES_DOMAIN && !app.endsWith(`.${c.SITES_DOMAIN}`);
    },
    {
      path: ['SITES_DOMAIN'],
      message: "must not be BASE_URL's host nor hold it: a site's origin is never the application's",
    },
  );

export type Config = z.output<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new Error(`configuration: ${first.path.join('.')}: ${first.message}`);
  }
  return parsed.data;
}
