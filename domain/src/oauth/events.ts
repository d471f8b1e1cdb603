// Events of the OAuth flow: registered clients, authorization codes and refresh-token
// families. All private and never federable. Secrets (codes, refresh tokens) appear only as SHA-256
// digests; the access tokens minted from a grant are ordinary `mcp_token.issued` records.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

export const oauthClientRegistered = defineEvent({
  type: 'oauth_client.registered',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    clientId: z.string(),
    clientName: z.string(),
    redirectUris: z.array(z.string()),
    grantTypes: z.array(z.string()),
    scope: z.string().optional(),
    clientUri: z.string().optional(),
  }),
});

/** A person consented: a single-use code (stream `oauth-code-<digest>`) bound to all of this. */
export const oauthCodeIssued = defineEvent({
  type: 'oauth_code.issued',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    codeDigest: z.string(),
    clientId: z.string(),
    accountId: z.string(),
    agentId: z.string(),
    personaId: z.string().optional(),
    redirectUri: z.string(),
    codeChallenge: z.string(),
    scopes: z.array(z.string()),
    resource: z.string(),
    familyId: z.string(),
    expiresAt: z.string(),
  }),
});

/** The code was exchanged (or presented again, which revokes what it minted). */
export const oauthCodeRedeemed = defineEvent({
  type: 'oauth_code.redeemed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ codeDigest: z.string(), familyId: z.string() }),
});

/** A wrong PKCE code_verifier was presented for a code; a few of them lock the code for good. */
export const oauthCodeVerifierRefused = defineEvent({
  type: 'oauth_code.verifier_refused',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ codeDigest: z.string(), attempt: z.number().int().min(1) }),
});

/** One link of a refresh-token family (stream `oauth-family-<id>`): the current refresh token. */
export const oauthRefreshIssued = defineEvent({
  type: 'oauth_refresh.issued',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    familyId: z.string(),
    refreshDigest: z.string(),
    accessJti: z.string(),
    clientId: z.string(),
    accountId: z.string(),
    agentId: z.string(),
    personaId: z.string().optional(),
    scopes: z.array(z.string()),
    resource: z.string(),
    expiresAt: z.string(),
    /** When the family began (its first tokens); its absolute lifetime counts from here. Absent in older events. */
    grantedAt: z.string().optional(),
  }),
});

export const oauthFamilyRevoked = defineEvent({
  type: 'oauth_family.revoked',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    familyId: z.string(),
    // credentials_changed: the account's password was reset or changed, or an operator disabled it.
    reason: z.enum(['refresh_reuse', 'code_reuse', 'owner', 'credentials_changed']),
  }),
});

/** Device flow (RFC 8628), stream `oauth-device-<sha256(device code)>`. */
export const oauthDeviceRequested = defineEvent({
  type: 'oauth_device.requested',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    deviceDigest: z.string(),
    userCodeDigest: z.string(),
    clientId: z.string(),
    scopes: z.array(z.string()),
    resource: z.string(),
    expiresAt: z.string(),
  }),
});

export const oauthDeviceApproved = defineEvent({
  type: 'oauth_device.approved',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    deviceDigest: z.string(),
    accountId: z.string(),
    agentId: z.string(),
    personaId: z.string().optional(),
    familyId: z.string(),
  }),
});

export const oauthDeviceDenied = defineEvent({
  type: 'oauth_device.denied',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ deviceDigest: z.string() }),
});

export const oauthDeviceRedeemed = defineEvent({
  type: 'oauth_device.redeemed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ deviceDigest: z.string() }),
});

const OAUTH_EVENTS = [
  oauthClientRegistered,
  oauthCodeIssued,
  oauthCodeRedeemed,
  oauthCodeVerifierRefused,
  oauthRefreshIssued,
  oauthFamilyRevoked,
  oauthDeviceRequested,
  oauthDeviceApproved,
  oauthDeviceDenied,
  oauthDeviceRedeemed,
] as const satisfies readonly EventDefinition[];

export type OAuthClientRegisteredData = z.infer<typeof oauthClientRegistered.data>;
export type OAuthCodeIssuedData = z.infer<typeof oauthCodeIssued.data>;
export type OAuthRefreshIssuedData = z.infer<typeof oauthRefreshIssued.data>;
export type OAuthFamilyRevokedData = z.infer<typeof oauthFamilyRevoked.data>;
export type OAuthDeviceRequestedData = z.infer<typeof oauthDeviceRequested.data>;
export type OAuthDeviceApprovedData = z.infer<typeof oauthDeviceApproved.data>;

export const oauthEvents = OAUTH_EVENTS;
