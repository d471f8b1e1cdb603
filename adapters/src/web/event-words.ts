// Signed events in a person's words (docs/web.md#home-events): each type as a short sentence, the area
// it belongs to, and who did it — the person or a persona, a visitor (a public form, a sign-in from
// elsewhere), or the instance itself (first start, federation, mail). The type name stays beside the
// sentence, in small print, for whoever needs the exact event.

/** The areas the home page gives a table each, in order; an event of another prefix goes to "Other". */
export const EVENT_AREAS: readonly (readonly [string, string, readonly string[]])[] = [
  [
    'sites',
    'Sites, forms and pictures',
    ['site', 'form', 'media', 'manifest', 'world', 'spatial', 'spatial_tag', 'presence'],
  ],
  ['assistant', 'The assistant', ['assistant']],
  [
    'agents',
    'You and your agents',
    ['agent', 'agents', 'account', 'email', 'handle', 'session', 'mcp_token', 'sso'],
  ],
  ['apps', 'Connected apps', ['oauth_client', 'oauth_code', 'oauth_device', 'oauth_refresh', 'oauth_family']],
  ['payments', 'Payments', ['payment']],
  ['instance', 'The instance', ['instance', 'peer', 'federation', 'mail']],
];

const SENTENCES: Record<string, string> = {
  'account.registered': 'An account was created',
  'account.email_verified': 'The email address was verified',
  'account.password_changed': 'The password was changed',
  'account.discovery_set': 'Who may find the account was changed',
  'account.time_zone_set': 'The time zone for your pages’ times was changed',
  'email.claimed': 'An email address was claimed',
  'handle.claimed': 'A handle was claimed',
  'session.started': 'Signed in',
  'session.ended': 'Signed out',
  'agent.created': 'An identity was created (you, or another name you work under)',
  'agent.profile_updated': 'A name or profile was changed',
  'agent.deleted': 'An identity was deleted',
  'agent.followed': 'Started following someone',
  'agent.unfollowed': 'Stopped following someone',
  'agent.materialized': 'An agent from another instance became known',
  'agents.materialized': 'Agents from another instance became known',
  'mcp_token.issued': 'A token was issued to an agent',
  'mcp_token.revoked': 'A token was revoked',
  'assistant.thread_started': 'A conversation with the assistant started',
  'assistant.message_added': 'A message was added to a conversation',
  'assistant.thread_deleted': 'A conversation was deleted',
  'assistant.plan_proposed': 'The assistant proposed a plan',
  'assistant.plan_confirmed': 'A plan was confirmed',
  'assistant.plan_cancelled': 'A plan was cancelled',
  'assistant.plan_step_finished': 'A step of a plan ran',
  'assistant.settings_updated': 'The assistant’s settings were changed',
  'assistant.attachment_added': 'A picture was attached for the assistant',
  'assistant.account_connected': 'A model provider account was connected',
  'assistant.account_disconnected': 'A model provider account was disconnected',
  'site.created': 'A site was created',
  'site.settings_updated': 'A site’s settings were changed',
  'site.draft_saved': 'A site’s draft was saved',
  'site.version_created': 'A site’s draft was rendered (for a preview or a publish)',
  'site.published': 'A site was published',
  'site.rolled_back': 'A site went back to an earlier version',
  'site.publish_noted': 'A note was kept with a site’s publish',
  'site.version_restored': 'A published version was put back into a site’s draft',
  'site.suspended': 'A site was suspended by the operators',
  'site.unsuspended': 'A site’s suspension was lifted',
  'site.address_set': 'A site’s address was set',
  'site.address_claimed': 'An address was claimed for a site',
  'site.address_released': 'A site’s address was let go',
  'site.address_registered': 'A site’s address was registered with the global instance',
  'site.address_deregistered': 'A site’s address was removed from the global instance',
  'site.domain_bound': 'A domain was connected to a site',
  'site.domain_verified': 'A site’s domain was verified',
  'site.domain_unbound': 'A domain was disconnected from a site',
  'form.created': 'A form was added to a site',
  'form.updated': 'A form was changed',
  'form.deleted': 'A form was deleted',
  'form.submission_received': 'Someone sent a form on your site',
  'form.submission_deleted': 'A form submission was deleted',
  'form.submissions_seen': 'You looked at a form’s submissions',
  'form.submission_mail_set': 'Mail about new form submissions was turned on or off',
  'media.uploaded': 'A picture or file was uploaded',
  'media.deleted': 'A picture or file was deleted',
  'manifest.publication_set': 'What the signed manifest publishes was changed',
  'world.published': 'A world was published',
  'world.unpublished': 'A world was unpublished',
  'presence.admitted': 'A traveller entered a world',
  'instance.initialized': 'The instance started for the first time',
  'instance.key_added': 'The instance got a signing key',
  'instance.key_rotated': 'The instance’s signing key was rotated',
  'instance.key_revoked': 'A signing key was revoked',
  'instance.controller_granted': 'Someone became an operator',
  'instance.controller_revoked': 'Someone stopped being an operator',
  'instance.settings_updated': 'The instance’s settings were changed',
  'peer.registered': 'A peer instance was added',
  'peer.blocked': 'A peer instance was blocked',
  'peer.unblocked': 'A peer instance was unblocked',
  'mail.requested': 'An email was asked for',
  'mail.sending': 'An email is being sent',
  'mail.sent': 'An email was sent',
  'mail.attempt_failed': 'An email could not be sent yet; it will be tried again',
  'mail.failed': 'An email could not be sent',
  'mail.submission_notice_queued': 'An email about new form submissions was asked for',
  'mail.submission_notice_deferred': 'A form submission waits for the next email about it',
  'mail.submission_notice_postponed': 'An email about form submissions was put off',
  'mail.submission_notice_dropped': 'Waiting form submissions will not be emailed',
  'mail.outcome_unknown': 'An email may or may not have been sent',
  'mail.token_issued': 'A link for an email was made',
  'mail.token_used': 'A link from an email was used',
  'oauth_client.registered': 'An app registered itself',
  'oauth_device.approved': 'A device was approved',
  'oauth_family.revoked': 'An app’s access was revoked',
  'sso.assertion_issued': 'A sign-in on another instance was vouched for',
};

/** Events a visitor causes (a public form, a traveller, an app registering), whatever agent they run as. */
const BY_VISITOR = new Set(['form.submission_received', 'presence.admitted', 'oauth_client.registered']);
/** Events the instance writes by itself: its first start, federation, the mail consumer. */
const BY_INSTANCE = new Set(['instance', 'peer', 'federation', 'mail']);

export const prefixOf = (type: string) => type.slice(0, type.indexOf('.'));

/**
 * The event as a sentence; a type with none is its own name, made readable. A few say more from the
 * event's data: which token, whether mail really left (with no mail server it only went to the outbox),
 * and whether the reader (`you`, their agent id) is the one it is about.
 */
export function eventSentence(
  e: { type: string; data?: Record<string, unknown> },
  o: { you?: string } = {},
): string {
  const { type, data = {} } = e;
  if (type === 'mail.sent' && data.via !== 'smtp') return 'An email was written to the outbox';
  if (type === 'mcp_token.issued' && typeof data.label === 'string' && data.label)
    return `The token “${data.label}” was issued to an agent`;
  if (type === 'instance.controller_granted' && o.you && data.agentId === o.you)
    return data.reason === 'first_account' ? 'You became the operator' : 'You became an operator';
  const s = SENTENCES[type];
  if (s) return s;
  const [area = '', verb = ''] = type.split('.');
  const words = `${area.replace(/_/g, ' ')}: ${verb.replace(/_/g, ' ')}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The id of the area an event type is shown under (EVENT_AREAS), or `other`. */
export function eventArea(type: string): string {
  const prefix = prefixOf(type);
  return EVENT_AREAS.find(([, , prefixes]) => prefixes.includes(prefix))?.[0] ?? 'other';
}

/**
 * Who did it, for the person reading: a visitor, the instance, or the agent's name. `since` is when the
 * person's account began: what their agent wrote before that was the instance's (a person instance's
 * first account takes over the agent the instance started with).
 */
export function eventActor(
  e: { type: string; actorId: string; occurredAt: string },
  o: { since: string | null; nameOf: (agentId: string) => string },
): string {
  if (BY_VISITOR.has(e.type)) return 'a visitor';
  if (BY_INSTANCE.has(prefixOf(e.type))) return 'the instance';
  if (o.since && e.occurredAt < o.since) return 'the instance';
  return o.nameOf(e.actorId);
}

/**
 * One line per email: a mail's steps (asked for, a link made, sending, its outcome) are written
 * together, so of adjacent mail events (newest first) only the newest, its latest state, is shown.
 */
export function foldMailSteps<T extends { event: { type: string } }>(events: readonly T[]): T[] {
  const step = (type: string) => prefixOf(type) === 'mail' && type !== 'mail.token_used';
  return events.filter((e, i) => !(step(e.event.type) && i > 0 && step(events[i - 1]!.event.type)));
}

/**
 * What a person's view leaves out: the instance's own steps behind what the person did (a draft rendered
 * for a preview or a publish). The log and the API keep them.
 */
export const INTERNAL_EVENTS: ReadonlySet<string> = new Set(['site.version_created']);

/** Sentences that name the site, for events of a site whose title the reader knows. */
const SITE_SENTENCES: Record<string, (site: string) => string> = {
  'site.created': (s) => `The site ${s} was created`,
  'site.settings_updated': (s) => `The settings of ${s} were changed`,
  'site.draft_saved': (s) => `The draft of ${s} was saved`,
  'site.published': (s) => `${s} was published`,
  'site.rolled_back': (s) => `${s} went back to an earlier version`,
  'site.publish_noted': (s) => `A note was kept with the publish of ${s}`,
  'site.version_restored': (s) => `A published version was put back into the draft of ${s}`,
  'site.suspended': (s) => `${s} was suspended by the operators`,
  'site.unsuspended': (s) => `The suspension of ${s} was lifted`,
  'site.address_set': (s) => `The address of ${s} was set`,
  'site.address_claimed': (s) => `An address was claimed for ${s}`,
  'site.address_released': (s) => `The address of ${s} was let go`,
  'site.address_registered': (s) => `The address of ${s} was registered with the global instance`,
  'site.address_deregistered': (s) => `The address of ${s} was removed from the global instance`,
  'site.domain_bound': (s) => `A domain was connected to ${s}`,
  'site.domain_verified': (s) => `The domain of ${s} was verified`,
  'site.domain_unbound': (s) => `A domain was disconnected from ${s}`,
};
/** Sentences that name the form (and the site a submission came through, when known). */
const FORM_SENTENCES: Record<string, (form: string, site: string | null) => string> = {
  'form.created': (f) => `The form ${f} was made`,
  'form.updated': (f) => `The form ${f} was changed`,
  'form.submission_received': (f, s) => `Someone sent the form ${f}${s ? ` on ${s}` : ''}`,
  'form.submission_deleted': (f) => `A message sent through ${f} was deleted`,
  'form.submissions_seen': (f) => `You read what was sent through ${f}`,
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** The site an event is about: its data's siteId, or the site or draft stream it is on. */
export function siteOf(e: { stream: string; data?: Record<string, unknown> }): string | null {
  if (typeof e.data?.siteId === 'string') return e.data.siteId;
  const m = /^(?:site|draft)-(.+)$/.exec(e.stream);
  return m?.[1] && UUID.test(m[1]) ? m[1] : null;
}
const formOf = (e: { data?: Record<string, unknown> }): string | null =>
  typeof e.data?.formId === 'string' ? e.data.formId : null;

/** Consecutive events of one kind, by one agent, about one thing: one line on the person's page. */
export interface EventLine<T> {
  /** Newest first, as read. */
  events: T[];
  /** The last line of a bounded read may go on in older events not read: "at least" its count. */
  more: boolean;
}

type LoggedEvent = {
  sequence: number;
  event: { type: string; actorId: string; stream: string; occurredAt: string; data: Record<string, unknown> };
};

/**
 * The events (newest first) as lines for a person: the internal ones left out, and consecutive events
 * of the same type, by the same agent, about the same site, form or stream, as one line ("The draft of
 * ‘Ada's Bakery’ was saved 6 times"). `hasMore` says older events exist than those read, so the last
 * line may count only part of its run.
 */
export function eventLines<T extends LoggedEvent>(events: readonly T[], hasMore = false): EventLine<T>[] {
  const subject = (e: T['event']) => siteOf(e) ?? formOf(e) ?? e.stream;
  const key = (e: T['event']) => `${e.type} ${e.actorId} ${subject(e)}`;
  const lines: EventLine<T>[] = [];
  for (const e of events) {
    if (INTERNAL_EVENTS.has(e.event.type)) continue;
    const last = lines.at(-1);
    if (last && key(last.events[0]!.event) === key(e.event)) last.events.push(e);
    else lines.push({ events: [e], more: false });
  }
  const last = lines.at(-1);
  if (last && hasMore) last.more = true;
  return lines;
}

/**
 * A line as a sentence: the site or form named where the reader knows it (`siteTitle`, `formName`), and
 * how many times when it stands for several events.
 */
export function lineSentence(
  line: EventLine<LoggedEvent>,
  o: {
    you?: string;
    siteTitle?: (siteId: string) => string | undefined;
    formName?: (formId: string) => string | undefined;
  } = {},
): string {
  const e = line.events[0]!.event;
  const quote = (name: string) => `‘${name}’`;
  const siteId = siteOf(e);
  const site = siteId ? o.siteTitle?.(siteId) : undefined;
  const formId = formOf(e);
  const form = formId ? o.formName?.(formId) : undefined;
  const bySite = SITE_SENTENCES[e.type];
  const byForm = FORM_SENTENCES[e.type];
  const words =
    bySite && site
      ? bySite(quote(site))
      : byForm && form
        ? byForm(quote(form), site ? quote(site) : null)
        : eventSentence(e, o);
  const n = line.events.length;
  if (n === 1 && !line.more) return words;
  return `${words} ${line.more ? 'at least ' : ''}${n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`}`;
}
