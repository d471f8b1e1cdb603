import type { z } from 'zod';

/**
 * One entry of the event catalogue. `federable` events are offered to peers; `public` ones may be
 * read by anyone on the feed. The feed shows only events that are both.
 */
export interface EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  type: T;
  version: number;
  federable: boolean;
  public: boolean;
  data: S;
}

export const defineEvent = <T extends string, S extends z.ZodType>(def: EventDefinition<T, S>) => def;
