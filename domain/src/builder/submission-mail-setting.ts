// Whether the owner is mailed about new submissions, per site and per form (docs/builder.md#submission-mail).
// One small stream per target, `submissionmail-site-<siteId>` or `submissionmail-form-<formId>`: on
// until the owner turns it off, and only a change is written. The caller checks that the target is the
// owner's before deciding (someone else's site or form is not found).
import type { NewEvent } from '../shared/envelope.js';
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { FormEventData } from './form-events.js';

export type SubmissionMailTarget = 'site' | 'form';

export const submissionMailStream = (target: SubmissionMailTarget, id: string) =>
  `submissionmail-${target}-${id}`;

export interface SubmissionMailSettingState {
  enabled: boolean;
}
export const initialSubmissionMailSetting = (): SubmissionMailSettingState => ({ enabled: true });

export function evolveSubmissionMailSetting(
  s: SubmissionMailSettingState,
  e: StoredEventLike,
): SubmissionMailSettingState {
  if (e.type !== 'form.submission_mail_set') return s;
  return { enabled: (e.data as FormEventData<'form.submission_mail_set'>).enabled };
}

/** Turns it on or off; the same value again writes nothing. */
export function decideSetSubmissionMail(
  cmd: { target: SubmissionMailTarget; targetId: string; ownerAgentId: string; enabled: boolean },
  s: SubmissionMailSettingState,
): NewEvent[] {
  if (s.enabled === cmd.enabled) return [];
  return [
    {
      stream: submissionMailStream(cmd.target, cmd.targetId),
      type: 'form.submission_mail_set',
      data: { ...cmd },
    },
  ];
}

export const submissionMailAggregates: readonly StreamAggregate[] = [
  streamAggregate('submissionmail-', {
    initial: initialSubmissionMailSetting,
    evolve: evolveSubmissionMailSetting,
  }),
];
