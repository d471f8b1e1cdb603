// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { builderDomainAggregate } from './domain-binding.js';
import { mediaStreams } from './media.js';
import {
  evolveAddressInstance,
  evolveAddressLabel,
  evolveAddressSite,
  initialAddressInstanceState,
  initialAddressLabelState,
  initialAddressSiteState,
} from './address.js';
import { formAggregates } from './form.js';
import { submissionMailAggregates } from './submission-mail-setting.js';
import { evolveDraft, evolveSite, initialDraftState, initialSiteState } from './site.js';

export const builderAggregates: readonly StreamAggregate[] = [
  streamAggregate('site-', { initial: initialSiteState, evolve: evolveSite }),
  streamAggregate('draft-', { initial: initialDraftState, evolve: evolveDraft }),
  builderDomainAggregate,
  mediaStreams,
  // Addresses (address.ts): prefixes that no `site-`/`draft-` stream, nor each other, begins with.
  streamAggregate('address-label-', { initial: initialAddressLabelState, evolve: evolveAddressLabel }),
  streamAggregate('address-site-', { initial: initialAddressSiteState, evolve: evolveAddressSite }),
  streamAggregate('address-instance-', {
    initial: initialAddressInstanceState,
    evolve: evolveAddressInstance,
  }),
  ...formAggregates,
  ...submissionMailAggregates,
];
