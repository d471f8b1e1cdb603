// POST /api/federation/email/send (docs/mail.md#delegated): a registered peer's signed request for one
// of this instance's mail templates, run as the catalogue's `svc.mail.send_delegated` as that peer.
// The signature is checked before the body is read (peer-authentication.ts); a refusal writes nothing.
import { invalid, unauthenticated } from '@tributary/domain';
import { sendDelegatedMail } from '@tributary/services';
import { Router } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';
import { peerAuthentication } from './peer-authentication.js';

/** A request names a template, at most ten addresses and a few short variables: far below this. */
export const MAIL_REQUEST_MAX_BODY_BYTES = 16 * 1024;

export function mailRoutes(ctx: HttpContext): Router {
  const r = Router();
  const signed = peerAuthentication({
    services: ctx.services,
    baseUrl: ctx.baseUrl,
    maxBodyBytes: MAIL_REQUEST_MAX_BODY_BYTES,
  });
  r.post('/email/send', signed, async (req, res) => {
    if (req.principal?.kind !== 'peer')
      throw unauthenticated('federation.signature_required', 'sign the request');
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(req.rawBody));
    } catch {
      throw invalid('request.malformed_json', 'the request body is not UTF-8 JSON');
    }
    const { result } = await runOperation(ctx, sendDelegatedMail, body, req.principal, req);
    // 202: accepted for sending; `status` says how far it got (a repeated key answers its current state).
    res.status(result.duplicate ? 200 : 202).json({ result });
  });
  return r;
}
