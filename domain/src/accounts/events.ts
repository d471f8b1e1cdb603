// Accounts, the emails they claim and their sessions. Never federable, never on the public feed.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

export const emailClaimed = defineEvent({
  type: 'email.claimed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ accountId: z.string() }),
});
export const accountRegistered = defineEvent({
  type: 'account.registered',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    accountId: z.string(),
    agentId: z.string(),
    email: z.string().optional(),
    handle: z.string().optional(),
    // bcrypt hash: the log is the source of truth for read models, so the hash lives here;
    // account events are never federable and never on the public feed.
    passwordHash: z.string(),
  }),
});
export const sessionStarted = defineEvent({
  type: 'session.started',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    sessionId: z.string(),
    accountId: z.string(),
    tokenHash: z.string(), // sha256 of the cookie value; the cookie itself is never stored
    expiresAt: z.string(),
  }),
});
export const sessionEnded = defineEvent({
  type: 'session.ended',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ reason: z.enum(['sign_out', 'expired', 'revoked']) }),
});

/** The account's email address was shown to be theirs (a verification link sent to it was opened). */
export const accountEmailVerified = defineEvent({
  type: 'account.email_verified',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ email: z.string() }),
});
/** A new password (bcrypt hash), e.g. by a reset link; every credential of the account ends with it. */
export const accountPasswordChanged = defineEvent({
  type: 'account.password_changed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ passwordHash: z.string(), reason: z.enum(['reset']) }),
});
/** An operator disabled the account: it cannot sign in, and every credential it held ended with this. */
export const accountDisabled = defineEvent({
  type: 'account.disabled',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ reason: z.string().max(500).optional() }),
});
/** An operator enabled a disabled account again: it signs in with its password as before. */
export const accountEnabled = defineEvent({
  type: 'account.enabled',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({}),
});
/** Whether peer apps may find the person in a user search (docs/federation.md#user-search). */
export const accountDiscoverySet = defineEvent({
  type: 'account.discovery_set',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ discoverable: z.boolean() }),
});
/**
 * The time zone the person chose for the times on their pages (docs/web.md#times); null gives the
 * choice back to the browser's own zone.
 */
export const accountTimeZoneSet = defineEvent({
  type: 'account.time_zone_set',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ timeZone: z.string().max(64).nullable() }),
});

export const accountsEvents = [
  emailClaimed,
  accountRegistered,
  sessionStarted,
  sessionEnded,
  accountEmailVerified,
  accountPasswordChanged,
  accountDiscoverySet,
  accountTimeZoneSet,
  accountDisabled,
  accountEnabled,
] as const satisfies readonly EventDefinition[];

/** The data of one of this area's events, by type. */
export type AccountEventData<T extends (typeof accountsEvents)[number]['type']> = z.infer<
  Extract<(typeof accountsEvents)[number], { type: T }>['data']
>;
