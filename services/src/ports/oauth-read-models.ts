// What the OAuth flow reads from its projections (rm_oauth_*).
export interface OAuthClientView {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  grantTypes: string[];
  scope: string | null;
  clientUri: string | null;
  registeredAt: string;
}

export interface OAuthReadModels {
  oauthClient(clientId: string): Promise<OAuthClientView | null>;
  /** The device-flow request a user code (by digest) names. */
  oauthDeviceOfUserCode(userCodeDigest: string): Promise<string | null>;
  /** The family a refresh token (current or rotated away) belongs to. */
  oauthFamilyOfRefresh(refreshDigest: string): Promise<string | null>;
}
