// Every environment variable the instance reads, validated once at start. docs/configuration.md lists them.
// Each area declares its own variables beside this file and the secrets are in secrets.ts; here they are
// merged, and what holds between variables is checked, in one place.
import { DEVELOPMENT_ALLOWED_ADDRESSES } from '@tributary/adapters';
import { resolve } from 'node:path';
import { z } from 'zod';
import { accountsVariables } from './accounts.js';
import { agentAccessVariables } from './agent-access.js';
import { assistantVariables } from './assistant.js';
import { builderVariables } from './builder.js';
import { databaseVariables } from './database.js';
import { federationVariables } from './federation.js';
import { instanceVariables } from './instance.js';
import { mailVariables } from './mail.js';
import { oauthVariables } from './oauth.js';
import { outboundVariables } from './outbound.js';
import { paymentsVariables } from './payments.js';
import { secretVariables } from './secrets.js';
import { serverVariables } from './server.js';
import { spatialVariables } from './spatial.js';
import { ssoVariables } from './sso.js';

export { PROCESS_ROLES, type ProcessRole } from './server.js';

/** Each area's variables; a name appears in one of them only (config-areas.unit.test.ts). */
export const variablesByArea = {
  server: serverVariables,
  database: databaseVariables,
  instance: instanceVariables,
  accounts: accountsVariables,
  agentAccess: agentAccessVariables,
  oauth: oauthVariables,
  spatial: spatialVariables,
  sso: ssoVariables,
  outbound: outboundVariables,
  federation: federationVariables,
  payments: paymentsVariables,
  mail: mailVariables,
  builder: builderVariables,
  assistant: assistantVariables,
  secrets: secretVariables,
};

const configSchema = z
  .object({
    ...serverVariables,
    ...databaseVariables,
    ...instanceVariables,
    ...accountsVariables,
    ...agentAccessVariables,
    ...oauthVariables,
    ...spatialVariables,
    ...ssoVariables,
    ...outboundVariables,
    ...federationVariables,
    ...paymentsVariables,
    ...mailVariables,
    ...builderVariables,
    ...assistantVariables,
    ...secretVariables,
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
