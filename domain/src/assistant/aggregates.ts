// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { assistantAccountAggregates } from './account.js';
import { attachmentAggregates } from './attachment.js';
import { evolvePlan, initialPlanState } from './plan.js';
import { evolveAssistantSettings, initialAssistantSettings } from './settings.js';
import { evolveThread, initialThreadState } from './thread.js';

export const assistantAggregates: readonly StreamAggregate[] = [
  streamAggregate('athread-', { initial: initialThreadState, evolve: evolveThread }),
  streamAggregate('aplan-', { initial: initialPlanState, evolve: evolvePlan }),
  streamAggregate('asettings-', { initial: initialAssistantSettings, evolve: evolveAssistantSettings }),
  ...assistantAccountAggregates,
  ...attachmentAggregates,
];
