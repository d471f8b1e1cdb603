// Every area the composition root composes, one line each. The order is the order they are composed in
// and their background loops start (and stop): federation sync, payments, the domain re-check, mail.
// The assistant comes before mail: it creates the secret key they share, and says so in its own words.
import type { AreaComposer, AreaContext, BackgroundRunner } from './area.js';
import { accountsArea } from './compose-accounts.js';
import { agentsArea } from './compose-agents.js';
import { assistantArea } from './compose-assistant.js';
import { builderArea } from './compose-builder.js';
import { federationArea } from './compose-federation.js';
import { mailArea } from './compose-mail.js';
import { manifestsArea } from './compose-manifests.js';
import { oauthArea } from './compose-oauth.js';
import { paymentsArea } from './compose-payments.js';
import { spatialArea } from './compose-spatial.js';
import { ssoArea } from './compose-sso.js';
import { tokensArea } from './compose-tokens.js';

export const areaComposers = [
  accountsArea,
  agentsArea,
  manifestsArea,
  oauthArea,
  tokensArea,
  spatialArea,
  assistantArea,
  ssoArea,
  federationArea,
  paymentsArea,
  builderArea,
  mailArea,
] as const;

type Composed = ReturnType<(typeof areaComposers)[number]>;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** What the areas contribute to Services, together. */
export type AreaServices = Intersection<Composed['services']>;
/** What the areas contribute to `Services.config`, together. */
export type AreaConfig = Intersection<NonNullable<Composed['config']>>;
/** The handles on the areas' loops the instance offers (`sync`, `mail`, …), together. */
export type AreaHandles = Intersection<NonNullable<Composed['handles']>>;

/** Runs every composer in order and gathers what they give. */
export function composeAreas(ctx: AreaContext): {
  services: AreaServices;
  config: AreaConfig;
  handles: AreaHandles;
  runners: BackgroundRunner[];
  closers: (() => Promise<void>)[];
} {
  const services = {};
  const config = {};
  const handles = {};
  const runners: BackgroundRunner[] = [];
  const closers: (() => Promise<void>)[] = [];
  for (const area of areaComposers) {
    const c = (area as AreaComposer<object, object>)(ctx);
    Object.assign(services, c.services);
    Object.assign(config, c.config);
    // Handles are getters over each area's loops: copied as getters, not as the values they have now.
    if (c.handles) Object.defineProperties(handles, Object.getOwnPropertyDescriptors(c.handles));
    runners.push(...(c.runners ?? []));
    if (c.close) closers.push(() => c.close!());
  }
  return {
    services: services as AreaServices,
    config: config as AreaConfig,
    handles: handles as AreaHandles,
    runners,
    closers,
  };
}
