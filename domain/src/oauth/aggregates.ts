// The streams of this area and the fold each one uses.
import type { StreamAggregate } from '../shared/aggregate.js';
import { oauthClientStreams, oauthCodeStreams, oauthDeviceStreams, oauthFamilyStreams } from './oauth.js';

export const oauthAggregates: readonly StreamAggregate[] = [
  oauthClientStreams,
  oauthCodeStreams,
  oauthFamilyStreams,
  oauthDeviceStreams,
];
