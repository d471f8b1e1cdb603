// Signed events in a person's words (docs/web.md#home-events): each type as a short sentence, the area
// it belongs to, and who did it — the person or a persona, a visitor (a public form, a sign-in from
// elsewhere), or the instance itself (first start, federation, mail). The type name stays beside the
// sentence, in small print, for whoever needs the exact event.

/** The areas the home page gives a table each, in order; an event of another prefix goes to "Other". */
export const EVENT_AREAS: readonly (readonly [string, string, readonly string[]])[] = [
  [
    'sites',
    'Your sites',
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
  'email.claimed': 'An email address was claimed',
  'handle.claimed': 'A handle was claimed',
  'session.started': 'Signed in',
  'session.ended': 'Signed out',
  'agent.created': 'An agent or persona was created',
  'agent.profile_updated': 'A profile was changed',
  'agent.deleted': 'A persona was deleted',
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
  'site.version_created': 'A version of a site was made',
  'site.published': 'A site was published',
  'site.rolled_back': 'A site went back to an earlier version',
  'site.publish_noted': 'A note was kept with a site’s publish',
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
