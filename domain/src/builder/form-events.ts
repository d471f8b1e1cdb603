// Forms and their submissions. Every one of these events is private and never federates: a form's
// definition is its owner's working data, and a submission is what a visitor sent its owner.
// Streams: `form-<formId>` (the definition: created, updated, deleted) and `submission-<submissionId>`
// (one submission: received, deleted), so visitors posting at once never contend for one stream and a
// form's own stream stays a handful of events however many submissions it gathers.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { formFieldsSchema, formNameSchema, successMessageSchema } from './form-definition.js';

export const formCreated = defineEvent({
  type: 'form.created',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    formId: z.string(),
    ownerAgentId: z.string(),
    name: formNameSchema,
    fields: formFieldsSchema,
    successMessage: successMessageSchema,
  }),
});
/** The parts that changed; `fields`, when present, is the whole new list. */
export const formUpdated = defineEvent({
  type: 'form.updated',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    formId: z.string(),
    name: formNameSchema.optional(),
    fields: formFieldsSchema.optional(),
    successMessage: successMessageSchema.optional(),
  }),
});
/** The form and its submissions leave every read model; nothing more is accepted for it. */
export const formDeleted = defineEvent({
  type: 'form.deleted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ formId: z.string() }),
});
/**
 * A visitor's submission, as validated against the form: only the form's fields, typed. Nothing about
 * the sender (address, agent, headers) is kept: the per-address rate limit lives in memory only.
 */
export const formSubmissionReceived = defineEvent({
  type: 'form.submission_received',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    formId: z.string(),
    submissionId: z.string(),
    /** The published site it was sent through. */
    siteId: z.string(),
    values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    receivedAt: z.string(),
  }),
});
export const formSubmissionDeleted = defineEvent({
  type: 'form.submission_deleted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ formId: z.string(), submissionId: z.string() }),
});

/**
 * The owner looked at the form's submissions: those received up to `through` (the newest one shown) are
 * seen, and stop counting as unread. A marker on the form's own stream, written only when it moves on.
 */
export const formSubmissionsSeen = defineEvent({
  type: 'form.submissions_seen',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ formId: z.string(), through: z.string() }),
});

/**
 * The owner turned mail about new submissions on or off for one of their sites or forms (default on:
 * no event). A submission is mailed only while both its site's and its form's setting are on
 * (docs/builder.md#submission-mail). Stream `submissionmail-<target>-<id>`.
 */
export const formSubmissionMailSet = defineEvent({
  type: 'form.submission_mail_set',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    target: z.enum(['site', 'form']),
    targetId: z.string(),
    ownerAgentId: z.string(),
    enabled: z.boolean(),
  }),
});

export const formEvents = [
  formCreated,
  formUpdated,
  formDeleted,
  formSubmissionReceived,
  formSubmissionDeleted,
  formSubmissionsSeen,
  formSubmissionMailSet,
] as const satisfies readonly EventDefinition[];

/** The data of one of the form events, by type. */
export type FormEventData<T extends (typeof formEvents)[number]['type']> = z.infer<
  Extract<(typeof formEvents)[number], { type: T }>['data']
>;
