// Scoped MCP tokens as JWTs (RFC 9068 profile, `typ: at+jwt`) signed EdDSA with the instance's
// Ed25519 key through jose. The JWT only proves "this instance issued jti X to account Y until Z";
// scopes, persona and revocation are read from the token record on every call.
import { unauthenticated } from '@tributary/domain';
import type { AccessTokenClaims, AccessTokens, VerifiedAccessToken } from '@tributary/services';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { KeyObject } from 'node:crypto';

interface JwtAccessTokenOptions {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
  /** BASE_URL. */
  issuer: string;
  /** `<BASE_URL>/api/mcp`. */
  audience: string;
  /** How many verified tokens to remember (the signature check is the costly part of a call). */
  cacheSize?: number;
}

const MAX_TOKEN_LENGTH = 4096;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export const looksLikeJwt = (token: string) => token.length <= MAX_TOKEN_LENGTH && JWT_SHAPE.test(token);

export function createJwtAccessTokens(o: JwtAccessTokenOptions): AccessTokens {
  // A token string that verified once verifies forever (it is immutable and the key does not change);
  // only its expiry moves. So remember the claims and re-check `exp`, never the signature.
  const verified = new Map<string, VerifiedAccessToken>();
  const cacheSize = o.cacheSize ?? 10_000;
  const expired = () => unauthenticated('auth.token_expired', 'the token has expired');

  return {
    issuer: o.issuer,
    audience: o.audience,
    async sign(c: AccessTokenClaims) {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: o.keyId })
        .setIssuer(o.issuer)
        .setAudience(o.audience)
        .setSubject(c.sub)
        .setJti(c.jti)
        .setIssuedAt(c.iat)
        .setExpirationTime(c.exp)
        .sign(o.privateKey);
    },
    async verify(token, now) {
      const known = verified.get(token);
      if (known) {
        if (known.exp * 1000 <= now.getTime()) throw expired();
        return known;
      }
      if (!looksLikeJwt(token)) throw unauthenticated('auth.invalid_token', 'the token is not a JWT');
      let payload;
      try {
        ({ payload } = await jwtVerify(token, o.publicKey, {
          algorithms: ['EdDSA'],
          typ: 'at+jwt',
          issuer: o.issuer,
          audience: o.audience,
          currentDate: now,
          requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        }));
      } catch (e) {
        if (e instanceof errors.JWTExpired) throw expired();
        if (e instanceof errors.JWTClaimValidationFailed && (e.claim === 'aud' || e.claim === 'iss'))
          throw unauthenticated('auth.wrong_audience', 'the token was not issued for this endpoint');
        throw unauthenticated('auth.invalid_token', 'the token is not valid');
      }
      const claims: VerifiedAccessToken = {
        iss: String(payload.iss),
        aud: o.audience,
        sub: String(payload.sub),
        jti: String(payload.jti),
        iat: Number(payload.iat),
        exp: Number(payload.exp),
      };
      if (verified.size >= cacheSize) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
      return claims;
    },
  };
}
