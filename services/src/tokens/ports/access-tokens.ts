// Scoped MCP tokens are JWTs signed with the instance key (EdDSA). The port keeps jose and the key in
// the adapters; the services only mint them. What a token may do lives in its record, not in the JWT.
export interface AccessTokenClaims {
  /** The account the token was issued to. */
  sub: string;
  jti: string;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
}

export interface VerifiedAccessToken extends AccessTokenClaims {
  iss: string;
  aud: string;
}

export interface AccessTokens {
  /** `iss`: the instance's BASE_URL. */
  readonly issuer: string;
  /** `aud`: the MCP endpoint, `<BASE_URL>/api/mcp`. */
  readonly audience: string;
  sign(claims: AccessTokenClaims): Promise<string>;
  /**
   * Checks signature, algorithm, issuer, audience and expiry at `now`; throws a DomainError with code
   * `auth.invalid_token`, `auth.token_expired` or `auth.wrong_audience`.
   */
  verify(token: string, now: Date): Promise<VerifiedAccessToken>;
}
