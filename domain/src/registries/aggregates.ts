// Which fold applies to which stream, by the stream's prefix: every area's aggregates, composed here.
import { accountsAggregates } from '../accounts/aggregates.js';
import { agentsAggregates } from '../agents/aggregates.js';
import { assistantAggregates } from '../assistant/aggregates.js';
import { builderAggregates } from '../builder/aggregates.js';
import { federationAggregates } from '../federation/aggregates.js';
import { instanceAggregates } from '../instance/aggregates.js';
import { mailAggregates } from '../mail/aggregates.js';
import { manifestsAggregates } from '../manifests/aggregates.js';
import { oauthAggregates } from '../oauth/aggregates.js';
import { paymentsAggregates } from '../payments/aggregates.js';
import type { Aggregate, StreamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { spatialAggregates } from '../spatial/aggregates.js';
import { ssoAggregates } from '../sso/aggregates.js';
import { tokensAggregates } from '../tokens/aggregates.js';
import type { Area } from './areas.js';

/** Each area's streams and their folds. */
export const AREA_AGGREGATES = {
  instance: instanceAggregates,
  agents: agentsAggregates,
  accounts: accountsAggregates,
  tokens: tokensAggregates,
  federation: federationAggregates,
  oauth: oauthAggregates,
  builder: builderAggregates,
  assistant: assistantAggregates,
  spatial: spatialAggregates,
  manifests: manifestsAggregates,
  payments: paymentsAggregates,
  mail: mailAggregates,
  sso: ssoAggregates,
  // The operators' acts are folded on the instance's and the accounts' streams.
  admin: [],
} as const satisfies Record<Area, readonly StreamAggregate[]>;

export const ALL_AGGREGATES: readonly StreamAggregate[] = Object.values(AREA_AGGREGATES).flat();
{
  const seen = new Set<string>();
  for (const { prefix } of ALL_AGGREGATES) {
    if (seen.has(prefix)) throw new Error(`duplicate aggregate for streams ${prefix}`);
    seen.add(prefix);
  }
}

function aggregateFor(stream: string): Aggregate<unknown> {
  const found = ALL_AGGREGATES.find(({ prefix }) =>
    prefix.endsWith('-') ? stream.startsWith(prefix) : stream === prefix,
  );
  if (!found) throw new Error(`no aggregate for stream ${stream}`);
  return found.aggregate;
}

export function fold<S>(stream: string, events: readonly StoredEventLike[]): S {
  return foldFrom<S>(stream, aggregateFor(stream).initial() as S, events);
}

/** A stream's state after `events`, given its state before them (the state of the events before). */
export function foldFrom<S>(stream: string, state: S, events: readonly StoredEventLike[]): S {
  const agg = aggregateFor(stream);
  return events.reduce((s, e) => agg.evolve(s, e), state as unknown) as S;
}
