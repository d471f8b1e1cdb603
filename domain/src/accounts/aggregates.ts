// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { evolveClaim, initialClaimState } from '../agents/index.js';
import { evolveAccount, evolveSession, initialAccountState, initialSessionState } from './account.js';

export const accountsAggregates: readonly StreamAggregate[] = [
  streamAggregate('account-', { initial: initialAccountState, evolve: evolveAccount }),
  streamAggregate('session-', { initial: initialSessionState, evolve: evolveSession }),
  streamAggregate('email-', { initial: initialClaimState, evolve: evolveClaim }),
];
