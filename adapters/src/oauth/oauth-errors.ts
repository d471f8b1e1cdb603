// The OAuth edge's error mapping (docs/architecture.md#errors): domain `oauth.<code>` errors become RFC 6749 /
// 7591 / 8628 error bodies; any other failure becomes the endpoint's generic code. Never a problem+json.
import { isDomainError, type OAuthRfcErrorCode } from '@tributary/domain';
import type { Response } from 'express';

interface OAuthErrorBody {
  error: string;
  error_description?: string;
  /** slow_down's current poll interval in seconds, so a client need not guess how far it grew. */
  interval?: number;
}

function oauthErrorOf(e: unknown, fallback: OAuthRfcErrorCode): { status: number; body: OAuthErrorBody } {
  if (isDomainError(e)) {
    const error = e.code.startsWith('oauth.')
      ? e.code.slice('oauth.'.length)
      : e.kind === 'unavailable'
        ? 'temporarily_unavailable'
        : e.kind === 'conflict'
          ? 'invalid_grant' // a concurrent redemption lost the race
          : fallback;
    const status = error === 'invalid_client' ? 401 : error === 'temporarily_unavailable' ? 503 : 400;
    const interval = e.details?.interval;
    return {
      status,
      body: {
        error,
        error_description: e.message,
        ...(typeof interval === 'number' && { interval }),
      },
    };
  }
  throw e;
}

export function sendOAuthError(res: Response, e: unknown, fallback: OAuthRfcErrorCode) {
  const { status, body } = oauthErrorOf(e, fallback);
  res.status(status).setHeader('Cache-Control', 'no-store').json(body);
}
