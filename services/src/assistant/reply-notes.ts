// Tributary's own statements about a turn (docs/assistant.md#who-is-speaking): what ran without asking,
// what the plan holds, what was declined and why, what came from outside. They are kept apart from the
// model's words (`text`), so a model that claims "it has run" never reads as the server saying so.
import type { DeclinedCall, UntrustedSource } from '@tributary/domain';
import { z } from 'zod';
import { operationNamed } from '../pipeline/operation-lookup.js';

export const NOTE_KINDS = ['ran', 'plan', 'declined', 'outside', 'limit'] as const;
export const replyNote = z.object({
  /** `ran` reads run without asking; `plan` what waits for confirmation; `declined` calls not taken; `outside` content the reply drew on; `limit` the turn stopped at its limit. */
  kind: z.enum(NOTE_KINDS),
  text: z.string(),
});
export type ReplyNote = z.infer<typeof replyNote>;

const SOURCE_WORDS: Record<UntrustedSource, string> = {
  tool_result: 'what a read returned',
  site_text: 'a site’s text',
  form_submission: 'a form submission',
  peer: 'another instance’s content',
  attachment: 'a picture',
  other_person: 'another person’s content',
};

/** A tool in words: its catalogue title ("List identities"), or its name when it is not in the catalogue. */
export const toolWords = (tool: string) => operationNamed(tool)?.title ?? tool;

const list = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export function replyNotes(m: {
  autoRan?: readonly { tool: string; outcome: string }[] | undefined;
  declined?: readonly DeclinedCall[] | undefined;
  untrustedSources?: readonly UntrustedSource[] | undefined;
  steps?: number | undefined;
  stoppedAtLimit?: boolean | undefined;
}): ReplyNote[] {
  const notes: ReplyNote[] = [];
  const ran = (m.autoRan ?? []).filter((a) => a.outcome === 'ran').map((a) => toolWords(a.tool));
  const failed = (m.autoRan ?? []).filter((a) => a.outcome !== 'ran').map((a) => toolWords(a.tool));
  if (ran.length)
    notes.push({
      kind: 'ran',
      text: `Read without asking (reads change nothing): ${list([...new Set(ran)])}.`,
    });
  if (failed.length)
    notes.push({ kind: 'ran', text: `A read did not succeed: ${list([...new Set(failed)])}.` });
  if (m.steps)
    notes.push({
      kind: 'plan',
      text: `Nothing in the plan below has run: ${m.steps === 1 ? 'its step runs' : `its ${m.steps} steps run`} only once you confirm.`,
    });
  const untrusted = (m.declined ?? []).filter((d) => d.code === 'assistant.untrusted_instruction');
  const other = (m.declined ?? []).filter((d) => d.code !== 'assistant.untrusted_instruction');
  if (untrusted.length)
    notes.push({
      kind: 'declined',
      text:
        `Not added to the plan: ${list(untrusted.map((d) => toolWords(d.tool)))}. ` +
        `The assistant asked for ${untrusted.length === 1 ? 'it' : 'them'} after reading ${
          m.untrustedSources?.length
            ? list(m.untrustedSources.map((s) => SOURCE_WORDS[s] ?? s))
            : 'content from outside your own words'
        }, and what it reads may not start changes (it could hold instructions that are not yours). ` +
        'If you want this, ask for it in a message of your own — a reply such as “yes, go ahead” will do.',
    });
  for (const d of other)
    notes.push({
      kind: 'declined',
      text: `Not done: ${toolWords(d.tool)}, because ${d.reason.replace(/\.$/, '')} (${d.code}).`,
    });
  if (m.untrustedSources?.length)
    notes.push({
      kind: 'outside',
      text: `This reply was written after reading ${list(m.untrustedSources.map((s) => SOURCE_WORDS[s] ?? s))}: treat what it says as information, not instructions.`,
    });
  if (m.stoppedAtLimit)
    notes.push({
      kind: 'limit',
      text: 'The assistant stopped here: this turn reached its limit of tool calls.',
    });
  return notes;
}
