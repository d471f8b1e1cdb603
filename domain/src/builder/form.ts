// The form aggregate (stream `form-<formId>`) and the submission aggregate (stream
// `submission-<submissionId>`), with their deciders. A form belongs to the agent that created it;
// anyone else asking about it is told it does not exist (builder.form_not_found).
import { conflict, notFound } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { FormDefinition } from './form-definition.js';
import type { FormEventData as EventData } from './form-events.js';
import { validateSubmission, type RawSubmission } from './form-submission.js';

export const formStream = (formId: string) => `form-${formId}`;
export const submissionStream = (submissionId: string) => `submission-${submissionId}`;

export interface FormState {
  exists: boolean;
  deleted: boolean;
  formId?: string;
  ownerAgentId?: string;
  definition?: FormDefinition;
  /** The receivedAt of the newest submission the owner has seen (form.submissions_seen). */
  seenThrough?: string;
}
export const initialFormState = (): FormState => ({ exists: false, deleted: false });

export function evolveForm(state: FormState, event: StoredEventLike): FormState {
  switch (event.type) {
    case 'form.created': {
      const d = event.data as EventData<'form.created'>;
      return {
        exists: true,
        deleted: false,
        formId: d.formId,
        ownerAgentId: d.ownerAgentId,
        definition: { name: d.name, fields: d.fields, successMessage: d.successMessage },
      };
    }
    case 'form.updated': {
      const d = event.data as EventData<'form.updated'>;
      if (!state.definition) return state;
      return {
        ...state,
        definition: {
          name: d.name ?? state.definition.name,
          fields: d.fields ?? state.definition.fields,
          successMessage: d.successMessage ?? state.definition.successMessage,
        },
      };
    }
    case 'form.deleted':
      return { ...state, deleted: true };
    case 'form.submissions_seen':
      return { ...state, seenThrough: (event.data as EventData<'form.submissions_seen'>).through };
    default:
      return state;
  }
}

/**
 * The owner has seen the form's submissions up to `through`. Only a marker that moves forward is
 * written: seeing the same (or older) submissions again writes nothing.
 */
export function decideMarkSubmissionsSeen(
  cmd: { ownerAgentId: string; through: string },
  form: FormState,
): NewEvent[] {
  requireOwnedForm(form, cmd.ownerAgentId);
  if (form.seenThrough !== undefined && Date.parse(form.seenThrough) >= Date.parse(cmd.through)) return [];
  return [
    {
      stream: formStream(form.formId),
      type: 'form.submissions_seen',
      data: { formId: form.formId, through: cmd.through },
    },
  ];
}

export interface SubmissionState {
  exists: boolean;
  deleted: boolean;
  formId?: string;
}
export const initialSubmissionState = (): SubmissionState => ({ exists: false, deleted: false });

export function evolveSubmission(state: SubmissionState, event: StoredEventLike): SubmissionState {
  switch (event.type) {
    case 'form.submission_received':
      return { exists: true, deleted: false, formId: (event.data as { formId: string }).formId };
    case 'form.submission_deleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export const formAggregates: readonly StreamAggregate[] = [
  streamAggregate('form-', { initial: initialFormState, evolve: evolveForm }),
  streamAggregate('submission-', { initial: initialSubmissionState, evolve: evolveSubmission }),
];

type LiveForm = FormState & { formId: string; ownerAgentId: string; definition: FormDefinition };

/** A live form of this owner; a deleted one, an unknown one and someone else's all look alike. */
export function requireOwnedForm(form: FormState, ownerAgentId: string): asserts form is LiveForm {
  if (!form.exists || form.deleted || !form.definition || form.ownerAgentId !== ownerAgentId)
    throw notFound('builder.form_not_found', 'no such form');
}

export interface CreateForm {
  formId: string;
  ownerAgentId: string;
  definition: FormDefinition;
}

export function decideCreateForm(cmd: CreateForm, form: FormState): NewEvent[] {
  // The id is minted fresh for each command; a stream that exists means a bug, not a request to refuse.
  if (form.exists) throw new Error(`form ${cmd.formId} already exists`);
  return [
    {
      stream: formStream(cmd.formId),
      type: 'form.created',
      data: { formId: cmd.formId, ownerAgentId: cmd.ownerAgentId, ...cmd.definition },
    },
  ];
}

export interface UpdateForm {
  ownerAgentId: string;
  name?: string | undefined;
  fields?: FormDefinition['fields'] | undefined;
  successMessage?: string | undefined;
}

/** PATCH: only the parts given and different are written; nothing changed writes nothing. */
export function decideUpdateForm(cmd: UpdateForm, form: FormState): NewEvent[] {
  requireOwnedForm(form, cmd.ownerAgentId);
  const current = form.definition;
  const changes: Omit<EventData<'form.updated'>, 'formId'> = {};
  if (cmd.name !== undefined && cmd.name !== current.name) changes.name = cmd.name;
  if (cmd.fields !== undefined && !sameJson(cmd.fields, current.fields)) changes.fields = cmd.fields;
  if (cmd.successMessage !== undefined && cmd.successMessage !== current.successMessage)
    changes.successMessage = cmd.successMessage;
  if (Object.keys(changes).length === 0) return [];
  return [
    { stream: formStream(form.formId), type: 'form.updated', data: { formId: form.formId, ...changes } },
  ];
}

export interface DeleteForm {
  ownerAgentId: string;
  /** Sites whose published version holds this form: it cannot go while one does. */
  publishedOn: readonly string[];
}

export function decideDeleteForm(cmd: DeleteForm, form: FormState): NewEvent[] {
  requireOwnedForm(form, cmd.ownerAgentId);
  if (cmd.publishedOn.length > 0)
    throw conflict('builder.form_in_use', 'a published site holds this form; publish without it first', {
      siteIds: [...cmd.publishedOn],
    });
  return [{ stream: formStream(form.formId), type: 'form.deleted', data: { formId: form.formId } }];
}

export interface ReceiveSubmission {
  submissionId: string;
  siteId: string;
  values: RawSubmission;
  receivedAt: string;
}

/**
 * A visitor's submission to a live form (the caller has checked the site publishes it): validated
 * against the definition, kept as typed values on its own stream.
 */
export function decideReceiveSubmission(
  cmd: ReceiveSubmission,
  form: FormState,
  submission: SubmissionState,
): NewEvent[] {
  if (!form.exists || form.deleted || !form.definition || !form.formId)
    throw notFound('builder.form_not_found', 'no such form');
  if (submission.exists) throw new Error(`submission ${cmd.submissionId} already exists`);
  const values = validateSubmission(form.definition, cmd.values);
  return [
    {
      stream: submissionStream(cmd.submissionId),
      type: 'form.submission_received',
      data: {
        formId: form.formId,
        submissionId: cmd.submissionId,
        siteId: cmd.siteId,
        values,
        receivedAt: cmd.receivedAt,
      },
    },
  ];
}

/** The owner deletes one submission of a live form of theirs; a second delete finds nothing. */
export function decideDeleteSubmission(
  cmd: { ownerAgentId: string; submissionId: string },
  form: FormState,
  submission: SubmissionState,
): NewEvent[] {
  // Someone else's submission looks like none, and names no form.
  if (
    !form.exists ||
    form.deleted ||
    !form.formId ||
    form.ownerAgentId !== cmd.ownerAgentId ||
    !submission.exists ||
    submission.deleted ||
    submission.formId !== form.formId
  )
    throw notFound('builder.submission_not_found', 'no such submission');
  return [
    {
      stream: submissionStream(cmd.submissionId),
      type: 'form.submission_deleted',
      data: { formId: form.formId, submissionId: cmd.submissionId },
    },
  ];
}

/** Field lists compared by value: keys sorted, so where a list was read back from does not matter. */
const sameJson = (a: unknown, b: unknown) => canonical(a) === canonical(b);
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);
