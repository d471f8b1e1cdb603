// Single sign-on (docs/sso.md): assertions issued and accepted, authority revocations (the one event of
// this area that federates: peers end the person's remote-viewer credentials when it arrives), and the
// accounts peers asked this (global) instance to create.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

export const ssoAssertionIssued = defineEvent({
  type: 'sso.assertion_issued',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    agentId: z.string(),
    audience: z.string(),
    nonce: z.string(),
    credentialVersion: z.number().int(),
    issuedAt: z.string(),
    expiresAt: z.string(),
  }),
});

/** The nonce burned: one per (issuer, nonce) stream, before any credential is minted. */
export const ssoAssertionAccepted = defineEvent({
  type: 'sso.assertion_accepted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    issuerInstanceId: z.string(),
    nonce: z.string(),
    subject: z.string(),
    agentId: z.string(),
    home: z.string(),
    credentialId: z.string(),
    credentialVersion: z.number().int(),
    expiresAt: z.string(),
  }),
});

/**
 * The person's authority revoked at home: every remote-viewer credential minted for them before it ends
 * on every peer the event reaches, and assertions of an older credential version are refused.
 */
export const ssoAuthorityRevoked = defineEvent({
  type: 'sso.authority_revoked',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ credentialVersion: z.number().int().min(1), revokedAt: z.string() }),
});

/** A peer's delegated sign-up or site account, remembered by its request key (idempotence). */
export const ssoDelegatedAccount = defineEvent({
  type: 'sso.delegated_account',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    peerId: z.string(),
    requestKey: z.string(),
    kind: z.enum(['signup', 'site_account']),
    requestDigest: z.string(),
    accountId: z.string(),
    agentId: z.string(),
    created: z.boolean(),
  }),
});

/**
 * The global instance records a person's home instance: the sovereign that created their account here by
 * a delegated sign-up (docs/sso.md#home). The session hand-off goes there when it names no instance.
 */
export const ssoHomeRecorded = defineEvent({
  type: 'sso.home_recorded',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    agentId: z.string(),
    accountId: z.string(),
    /** The home instance: a registered peer. */
    peerId: z.string(),
    via: z.enum(['delegated_sign_up']),
  }),
});

/**
 * A local account linked to the person's agent at the instance holding their password (the global
 * instance): a delegating sovereign signs the account in by that link, and the link's agent is bound to
 * the account's own agent so the feed's copy of the person is that one agent (docs/sso.md#one-agent).
 */
export const ssoAccountLinked = defineEvent({
  type: 'sso.account_linked',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    accountId: z.string(),
    /** The account's own (local) agent. */
    agentId: z.string(),
    /** The instance id of the global instance, and the person's agent id there. */
    origin: z.string(),
    remoteAgentId: z.string(),
    via: z.enum(['sign_up', 'sign_in']),
    /** Whether the remote agent was bound to `agentId` (false when the feed had bound it already). */
    bound: z.boolean(),
  }),
});

export const ssoEvents = [
  ssoAssertionIssued,
  ssoAssertionAccepted,
  ssoAuthorityRevoked,
  ssoDelegatedAccount,
  ssoHomeRecorded,
  ssoAccountLinked,
] as const satisfies readonly EventDefinition[];
