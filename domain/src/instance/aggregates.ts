// The streams of this area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import { evolveInstance, initialInstanceState } from './instance.js';
import {
  evolveInstanceSettings,
  initialInstanceSettingsState,
  INSTANCE_SETTINGS_STREAM,
} from './settings.js';

export const instanceAggregates: readonly StreamAggregate[] = [
  streamAggregate('instance', { initial: initialInstanceState, evolve: evolveInstance }),
  streamAggregate(INSTANCE_SETTINGS_STREAM, {
    initial: initialInstanceSettingsState,
    evolve: evolveInstanceSettings,
  }),
];
