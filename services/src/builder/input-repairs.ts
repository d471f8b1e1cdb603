// How an operation that repairs what was typed says what it did (docs/builder.md#addresses): the
// value as typed and the repairs made, beside the repaired value it answers as usual.
import type { InputRepair } from '@tributary/domain';
import { z } from 'zod';

const INPUT_REPAIRS = [
  'trimmed',
  'lower_cased',
  'apostrophes_dropped',
  'accents_dropped',
  'spaces_to_hyphens',
  'characters_to_hyphens',
  'scheme_dropped',
  'path_dropped',
  'port_dropped',
  'www_dropped',
  'trailing_dot_dropped',
  'sites_domain_dropped',
  'shortened',
] as const satisfies readonly InputRepair[];

export const inputRepairsOutput = {
  typed: z.string().nullable().describe('the value as given (null when none was)'),
  repairs: z
    .array(z.enum(INPUT_REPAIRS))
    .describe('what was changed to make it valid (empty: used as given), e.g. lower_cased, www_dropped'),
};

/** The repairs in words, for pages and the assistant. */
export const REPAIR_WORDS: Record<InputRepair, string> = {
  trimmed: 'spaces around it removed',
  lower_cased: 'made lower-case',
  apostrophes_dropped: 'apostrophes dropped',
  accents_dropped: 'accents dropped',
  spaces_to_hyphens: 'spaces made hyphens',
  characters_to_hyphens: 'other characters made hyphens',
  scheme_dropped: 'https:// dropped',
  path_dropped: 'the path after the name dropped',
  port_dropped: 'the port dropped',
  www_dropped: 'www. dropped',
  trailing_dot_dropped: 'the final dot dropped',
  sites_domain_dropped: 'the free-address domain dropped',
  shortened: 'shortened to 63 characters',
};
