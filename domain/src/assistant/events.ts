// The assistant's events: threads and their messages, plans and what became of each step, and the
// person's assistant settings. None is federable or public: they are a person's own conversation.
// Attachments and the connected account have their own files (attachment-events.ts, account-events.ts).
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { assistantAccountEvents } from './account-events.js';
import { assistantAttachmentEvents } from './attachment-events.js';
import { ASSISTANT_LIMITS } from './limits.js';

/** Where a value in a plan came from when it was not the person's own words. */
export const UNTRUSTED_SOURCES = [
  'tool_result',
  'attachment',
  'form_submission',
  'peer',
  'other_person',
  'site_text',
] as const;
export type UntrustedSource = (typeof UNTRUSTED_SOURCES)[number];

export const untrustedMarkSchema = z.strictObject({
  /** JSON Pointer (RFC 6901) into the step's `args`. */
  path: z.string().max(300),
  source: z.enum(UNTRUSTED_SOURCES),
});
export type UntrustedMark = z.infer<typeof untrustedMarkSchema>;

/** One step of a plan: a catalogue tool with its arguments exactly as it will run. */
export const planStepSchema = z.strictObject({
  /** 1-based position in the plan. */
  step: z.number().int().min(1).max(ASSISTANT_LIMITS.planMaxSteps),
  tool: z.string().min(1).max(100),
  /** The tool in plain words, as shown to the person. */
  title: z.string().max(300),
  /** Fully resolved: `targetAgentId` is set by the server, never by the model. */
  args: z.record(z.string(), z.unknown()),
  /** The tool is a command (it writes): it never runs unconfirmed. */
  writes: z.boolean(),
  untrusted: z.array(untrustedMarkSchema).max(100),
});
export type PlanStep = z.infer<typeof planStepSchema>;

/** A tool call the model proposed that did not become a step, and why. */
export const declinedCallSchema = z.strictObject({
  tool: z.string().max(100),
  code: z.string().max(100),
  reason: z.string().max(500),
});
export type DeclinedCall = z.infer<typeof declinedCallSchema>;

export const STEP_OUTCOMES = ['ran', 'failed', 'skipped'] as const;
export type StepOutcome = (typeof STEP_OUTCOMES)[number];

const eventRef = z.strictObject({
  id: z.string(),
  type: z.string(),
  stream: z.string(),
  streamVersion: z.number().int(),
  position: z.number().int().optional(),
});

export const threadStarted = defineEvent({
  type: 'assistant.thread_started',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    threadId: z.string(),
    /** The person's own agent: a thread belongs to the person, whichever persona its plans act as. */
    ownerAgentId: z.string(),
    title: z.string().max(ASSISTANT_LIMITS.titleMaxChars),
  }),
});

export const messageAdded = defineEvent({
  type: 'assistant.message_added',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    messageId: z.string(),
    role: z.enum(['person', 'assistant']),
    text: z.string().max(ASSISTANT_LIMITS.replyMaxChars),
    attachmentIds: z.array(z.string()).max(ASSISTANT_LIMITS.attachmentsPerMessage),
    /** The plan this assistant message proposes, when it proposes one. */
    planId: z.string().optional(),
    /** Steps run unconfirmed because they only read and the settings allow it. */
    autoRan: z
      .array(z.strictObject({ tool: z.string().max(100), outcome: z.enum(STEP_OUTCOMES) }))
      .max(50)
      .optional(),
    declined: z.array(declinedCallSchema).max(ASSISTANT_LIMITS.declinedMax).optional(),
    /** Kinds of outside content the reply was made with (shown as a caution). */
    untrustedSources: z.array(z.enum(UNTRUSTED_SOURCES)).max(UNTRUSTED_SOURCES.length).optional(),
    /** Which model answered (assistant messages). */
    model: z.string().max(200).optional(),
    /**
     * The outside content this turn read, as the model was shown it (its strings, by source), kept so
     * that a value from it stays marked in every later turn of the thread, whatever the model remembers.
     */
    outside: z
      .array(z.strictObject({ source: z.enum(UNTRUSTED_SOURCES), text: z.string() }))
      .max(200)
      .refine((o) => o.reduce((n, x) => n + x.text.length, 0) <= ASSISTANT_LIMITS.outsideKeptChars, {
        message: `at most ${ASSISTANT_LIMITS.outsideKeptChars} characters of outside content are kept`,
      })
      .optional(),
    /** The turn read more outside content than is kept: later turns treat the thread as holding it. */
    outsideCut: z.boolean().optional(),
  }),
});

export const threadDeleted = defineEvent({
  type: 'assistant.thread_deleted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ threadId: z.string() }),
});

export const planProposed = defineEvent({
  type: 'assistant.plan_proposed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    planId: z.string(),
    threadId: z.string(),
    messageId: z.string(),
    /** The person whose plan it is (who may confirm it). */
    ownerAgentId: z.string(),
    /** The agent every step acts as (the person's own, or a persona they control). */
    actingAgentId: z.string(),
    steps: z.array(planStepSchema).min(1).max(ASSISTANT_LIMITS.planMaxSteps),
    /** SHA-256 (hex) of the RFC 8785 text of `planHashInput(plan)`. */
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    expiresAt: z.string(),
  }),
});

export const planConfirmed = defineEvent({
  type: 'assistant.plan_confirmed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    /** The steps chosen; the plan's other pending steps are cancelled by this confirmation. */
    steps: z.array(z.number().int().min(1)).min(1).max(ASSISTANT_LIMITS.planMaxSteps),
    confirmedByAgentId: z.string(),
    via: z.enum(['http', 'mcp', 'assistant']),
  }),
});

export const planCancelled = defineEvent({
  type: 'assistant.plan_cancelled',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    steps: z.array(z.number().int().min(1)).min(1).max(ASSISTANT_LIMITS.planMaxSteps),
  }),
});

export const planStepFinished = defineEvent({
  type: 'assistant.plan_step_finished',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    step: z.number().int().min(1),
    tool: z.string(),
    status: z.enum(STEP_OUTCOMES),
    errorCode: z.string().max(100).optional(),
    /** A short, redacted account of the result for the vault document. */
    summary: z.string().max(2_000),
    /** The step's own events (those of this same append). */
    events: z.array(eventRef).max(200),
  }),
});

export const settingsUpdated = defineEvent({
  type: 'assistant.settings_updated',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    /** A model id of the configured model endpoint or the connected account; absent = the default. */
    model: z.string().max(200).nullable().optional(),
    /** The persona plans act as by default; null = the person's own agent. */
    defaultPersonaId: z.string().nullable().optional(),
    /** Read-only tools that may run without confirmation. Never a tool that writes. */
    autoRunReadTools: z.array(z.string().max(100)).max(200).optional(),
    /** Areas whose reads run without asking; null = back to the default (the person's own data). */
    readAreas: z.array(z.string().max(40)).max(40).nullable().optional(),
    vault: z.boolean().optional(),
  }),
});

export const assistantEvents = [
  threadStarted,
  messageAdded,
  threadDeleted,
  planProposed,
  planConfirmed,
  planCancelled,
  planStepFinished,
  settingsUpdated,
  ...assistantAccountEvents,
  ...assistantAttachmentEvents,
] as const satisfies readonly EventDefinition[];

type AssistantEvent = (typeof assistantEvents)[number];
export type AssistantEventData<T extends AssistantEvent['type']> = z.infer<
  Extract<AssistantEvent, { type: T }>['data']
>;
