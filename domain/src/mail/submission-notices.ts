// Mail to a site's owner about new form submissions (docs/builder.md#submission-mail): one stream per
// form, `mailnotice-<formId>`, holding what the notifier decided. The rule: a submission is mailed at
// once when no mail about its form went out in the last quiet time (BUILDER_SUBMISSION_MAIL_MINUTES);
// otherwise it waits, and every submission that waited goes in one mail with their count when the quiet
// time is over. So a burst makes at most one mail per form per quiet time, and each submission is told
// of in exactly one mail: the mail request and the decision are one commit, and `handledThrough` (a log
// sequence) makes a repeated decision write nothing.
import type { NewEvent } from '../shared/envelope.js';
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { MailEventData as EventData } from './events.js';

export const submissionNoticeStream = (formId: string) => `mailnotice-${formId}`;

export interface SubmissionNoticeState {
  /** The log sequence of the last submission decided (0: none). */
  handledThrough: number;
  /** When the last mail about this form was asked for. */
  lastQueuedAt?: string;
  /** Submissions waiting for the next mail. */
  pending: number;
  /** The receivedAt of the first of them. */
  pendingSince?: string;
  /** The newest of them (its fields are shown). */
  latestSubmissionId?: string;
  /** When the waiting mail may go. */
  dueAt?: string;
}
export const initialSubmissionNoticeState = (): SubmissionNoticeState => ({ handledThrough: 0, pending: 0 });

const cleared = (s: SubmissionNoticeState): SubmissionNoticeState => ({
  handledThrough: s.handledThrough,
  ...(s.lastQueuedAt !== undefined && { lastQueuedAt: s.lastQueuedAt }),
  pending: 0,
});

export function evolveSubmissionNotice(s: SubmissionNoticeState, e: StoredEventLike): SubmissionNoticeState {
  switch (e.type) {
    case 'mail.submission_notice_queued': {
      const d = e.data as EventData<'mail.submission_notice_queued'>;
      return { handledThrough: Math.max(s.handledThrough, d.through), lastQueuedAt: d.at, pending: 0 };
    }
    case 'mail.submission_notice_deferred': {
      const d = e.data as EventData<'mail.submission_notice_deferred'>;
      return {
        ...s,
        handledThrough: Math.max(s.handledThrough, d.through),
        pending: s.pending + 1,
        pendingSince: s.pendingSince ?? d.receivedAt,
        latestSubmissionId: d.submissionId,
        dueAt: d.dueAt,
      };
    }
    case 'mail.submission_notice_postponed':
      return { ...s, dueAt: (e.data as EventData<'mail.submission_notice_postponed'>).dueAt };
    case 'mail.submission_notice_dropped':
      return cleared(s);
    default:
      return s;
  }
}

export const submissionNoticeAggregates: readonly StreamAggregate[] = [
  streamAggregate('mailnotice-', { initial: initialSubmissionNoticeState, evolve: evolveSubmissionNotice }),
];

/** A new submission, as the notifier reads it off the log. */
export interface ArrivingSubmission {
  formId: string;
  submissionId: string;
  /** Its event's log sequence. */
  seq: number;
  receivedAt: string;
}

/** What to do with a submission that arrives: nothing (decided before), mail now, or wait until `dueAt`. */
export type SubmissionNoticePlan =
  { kind: 'decided' } | { kind: 'mail'; count: number; since: string } | { kind: 'wait'; dueAt: string };

export function planSubmissionNotice(
  s: SubmissionNoticeState,
  sub: ArrivingSubmission,
  now: Date,
  quietMs: number,
): SubmissionNoticePlan {
  if (sub.seq <= s.handledThrough) return { kind: 'decided' };
  const quietUntil = s.lastQueuedAt === undefined ? 0 : Date.parse(s.lastQueuedAt) + quietMs;
  // A later due time (an address over its allowance) holds as well.
  const until = Math.max(quietUntil, s.pending > 0 && s.dueAt ? Date.parse(s.dueAt) : 0);
  if (now.getTime() >= until)
    return { kind: 'mail', count: s.pending + 1, since: s.pendingSince ?? sub.receivedAt };
  return { kind: 'wait', dueAt: new Date(until).toISOString() };
}

/** The decision that a mail (request `requestKey`) tells of `count` submissions up to `through`. */
export function decideSubmissionNoticeQueued(
  s: SubmissionNoticeState,
  d: { formId: string; through: number; count: number; requestKey: string; at: Date },
): NewEvent[] {
  if (d.through < s.handledThrough || (d.through === s.handledThrough && s.pending === 0)) return [];
  return [
    {
      stream: submissionNoticeStream(d.formId),
      type: 'mail.submission_notice_queued',
      data: {
        formId: d.formId,
        through: d.through,
        count: d.count,
        requestKey: d.requestKey,
        at: d.at.toISOString(),
      },
    },
  ];
}

export function decideSubmissionNoticeDeferred(
  s: SubmissionNoticeState,
  sub: ArrivingSubmission,
  dueAt: string,
): NewEvent[] {
  if (sub.seq <= s.handledThrough) return [];
  return [
    {
      stream: submissionNoticeStream(sub.formId),
      type: 'mail.submission_notice_deferred',
      data: {
        formId: sub.formId,
        submissionId: sub.submissionId,
        through: sub.seq,
        receivedAt: sub.receivedAt,
        dueAt,
      },
    },
  ];
}

/** The waiting mail is due: it tells of every waiting submission, up to the last one decided. */
export function waitingNotice(
  s: SubmissionNoticeState,
  now: Date,
): { count: number; through: number; since: string; latestSubmissionId: string } | null {
  if (s.pending === 0 || !s.dueAt || Date.parse(s.dueAt) > now.getTime()) return null;
  return {
    count: s.pending,
    through: s.handledThrough,
    since: s.pendingSince ?? s.dueAt,
    latestSubmissionId: s.latestSubmissionId ?? '',
  };
}
