// What the OAuth flow reads from its projections (rm_oauth_*).
import type { OAuthRefreshIssuedData } from '@tributary/domain';

export interface OAuthClientView {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  grantTypes: string[];
  scope: string | null;
  clientUri: string | null;
  registeredAt: string;
}

/** One OAuth grant (a refresh-token family) as the connected-apps page shows it. */
export interface OAuthGrantView {
  familyId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  personaId: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** Newest tool call made with any token this client holds for the account. */
  lastUsedAt: string | null;
}

export interface OAuthRefreshFamilyView {
  familyId: string;
  current: OAuthRefreshIssuedData | null;
  /** The family stream's version the row was folded at (null with `current`). */
  streamVersion: number | null;
  revoked: boolean;
  /** When the family's first refresh token was issued (for families whose events predate `grantedAt`). */
  createdAt: string | null;
}

export interface OAuthReadModels {
  /** The account's OAuth grants, newest first. */
  oauthGrantsOf(accountId: string): Promise<OAuthGrantView[]>;
  oauthClient(clientId: string): Promise<OAuthClientView | null>;
  /** The device-flow request a user code (by digest) names. */
  oauthDeviceOfUserCode(userCodeDigest: string): Promise<string | null>;
  /**
   * The family a refresh token (current or rotated away) belongs to, with the family's current refresh
   * token and stream version as its read model holds them (`current` is null for a family folded before
   * the read model kept them: fold its stream then).
   */
  oauthFamilyOfRefreshState(refreshDigest: string): Promise<OAuthRefreshFamilyView | null>;
  /** The family a refresh token (current or rotated away) belongs to. */
  oauthFamilyOfRefresh(refreshDigest: string): Promise<string | null>;
  /**
   * The OAuth client an access token (by jti) was minted for, or null for a token a person issued
   * directly: only an OAuth client can act on a scope challenge by asking its person again.
   */
  oauthAccessTokenClient(jti: string): Promise<string | null>;
}
