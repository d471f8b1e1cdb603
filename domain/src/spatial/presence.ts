// The once-only stream of a presentation, and the decision to admit its traveller.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import { conflict } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { TravellerContent } from './traveller-presentation.js';

/** One stream per (issuer, nonce): at most one admission per presentation, for ever. */
export const presentationStream = (issuerInstanceId: string, nonce: string) =>
  `presentation-${issuerInstanceId}-${nonce}`;

export interface PresentationUseState {
  used: boolean;
}

export const presentationStreams = streamAggregate<PresentationUseState>('presentation-', {
  initial: () => ({ used: false }),
  evolve: (_s: PresentationUseState, e: StoredEventLike) =>
    e.type === 'presence.admitted' ? { used: true } : _s,
});

export interface AdmitTraveller {
  receiptId: string;
  worldId: string;
  subject: string;
  issuerInstanceId: string;
  issuerBaseUrl: string;
  presentationId: string;
  nonce: string;
  content: TravellerContent;
  renewal: boolean;
  expiresAt: string;
}

/** Admits the traveller once per presentation; a used one is a replay. */
export function decideAdmitTraveller(cmd: AdmitTraveller, state: PresentationUseState): NewEvent[] {
  if (state.used)
    throw conflict('spatial.presentation_replayed', 'this presentation was already presented here', {
      presentationId: cmd.presentationId,
    });
  return [
    {
      stream: presentationStream(cmd.issuerInstanceId, cmd.nonce),
      type: 'presence.admitted',
      data: { ...cmd },
    },
  ];
}
