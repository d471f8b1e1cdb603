// Every environment variable the instance reads, validated once at start. docs/configuration.md lists them.
// Each area declares its own variables and the rules between them beside this file, the secrets are in
// secrets.ts; here they are merged, one line per area, and the rules checked in one place.
import { DEVELOPMENT_ALLOWED_ADDRESSES } from '@tributary/adapters';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ConfigCheck } from './fields.js';
import { accountsVariables } from './accounts.js';
import { agentAccessVariables } from './agent-access.js';
import { assistantChecks, assistantVariables } from './assistant.js';
import { builderChecks, builderVariables } from './builder.js';
import { databaseVariables } from './database.js';
import { federationChecks, federationVariables } from './federation.js';
import { instanceVariables } from './instance.js';
import { mailVariables } from './mail.js';
import { oauthChecks, oauthVariables } from './oauth.js';
import { outboundVariables } from './outbound.js';
import { paymentsChecks, paymentsVariables } from './payments.js';
import { secretVariables } from './secrets.js';
import { serverChecks, serverVariables } from './server.js';
import { spatialVariables } from './spatial.js';
import { ssoVariables } from './sso.js';

export { PROCESS_ROLES, type ProcessRole } from './server.js';

/**
 * Every area's variables and the rules between them, one line per area; a name appears in one area
 * only (config-areas.unit.test.ts). The rules are checked in this order once each variable is valid.
 */
const configAreas = {
  server: { variables: serverVariables, checks: serverChecks },
  database: { variables: databaseVariables },
  instance: { variables: instanceVariables },
  accounts: { variables: accountsVariables },
  agentAccess: { variables: agentAccessVariables },
  oauth: { variables: oauthVariables, checks: oauthChecks },
  spatial: { variables: spatialVariables },
  sso: { variables: ssoVariables },
  outbound: { variables: outboundVariables },
  federation: { variables: federationVariables, checks: federationChecks },
  payments: { variables: paymentsVariables, checks: paymentsChecks },
  mail: { variables: mailVariables },
  builder: { variables: builderVariables, checks: builderChecks },
  assistant: { variables: assistantVariables, checks: assistantChecks },
  secrets: { variables: secretVariables },
};

type Areas = typeof configAreas;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Each area's variables. */
export const variablesByArea = Object.fromEntries(
  Object.entries(configAreas).map(([area, { variables }]) => [area, variables]),
) as { [A in keyof Areas]: Areas[A]['variables'] };

// One object of every variable, in the areas' order (the order zod reports them in).
const variables = Object.assign({}, ...Object.values(variablesByArea)) as Intersection<
  Areas[keyof Areas]['variables']
>;
type Variables = z.output<z.ZodObject<typeof variables>>;

// Each area's rules take the variables they read: the compiler checks those are the merged ones.
const checks = Object.values(configAreas).flatMap<ConfigCheck<Variables>>((a) =>
  'checks' in a ? a.checks : [],
);

const configSchema = z
  .object(variables)
  .superRefine((c, ctx) => {
    for (const check of checks)
      if (!check.holds(c)) ctx.addIssue({ code: 'custom', path: [check.path], message: check.message });
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
