/** What a preview URL names: one version of one site, until a moment. */
export interface PreviewClaims {
  siteId: string;
  versionId: string;
  /** Unix seconds after which the token is refused. */
  expiresAt: number;
}

/**
 * Preview URLs' tokens (docs/builder.md#publishing): signed with a key only this
 * instance holds, so a token cannot be made or altered by anyone else, and short-lived.
 */
export interface PreviewTokens {
  /** How long a new preview URL stays valid (BUILDER_PREVIEW_SECONDS). */
  readonly lifetimeSeconds: number;
  /** A URL-path-safe token carrying the claims. */
  issue(claims: PreviewClaims): string;
  /** The claims of a token this instance issued, unaltered; undefined otherwise. Expiry is the caller's. */
  verify(token: string): PreviewClaims | undefined;
}
