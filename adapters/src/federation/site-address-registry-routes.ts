// The global instance's site address registry (docs/federation.md#site-address-registry): peer-signed
// routes, each running its catalogue operation as the signing peer. The operations refuse on any
// instance that is not the global one (403 federation.global_only).
import { invalid, unauthenticated } from '@tributary/domain';
import {
  deregisterAddress,
  recordAddressInstance,
  registerAddress,
  type Principal,
} from '@tributary/services';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { runOperation, type HttpContext } from '../http/index.js';
import { peerAuthentication } from './peer-authentication.js';

/** A registry request is a label and a site id: far below this. */
const REGISTRY_MAX_BODY_BYTES = 4096;

export const siteAddressRequest = z.strictObject({
  action: z.enum(['claim', 'release']),
  label: z.string().max(253),
  siteId: z.string().min(1).max(64),
});

function peerOf(req: Request): Extract<Principal, { kind: 'peer' }> {
  if (req.principal?.kind !== 'peer')
    throw unauthenticated('federation.signature_required', 'sign the request');
  return req.principal;
}

function jsonBodyOf(req: Request): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(req.rawBody));
  } catch {
    throw invalid('request.malformed_json', 'the request body is not UTF-8 JSON');
  }
}

export function siteAddressRegistryRoutes(ctx: HttpContext): Router {
  const r = Router();
  const signed = peerAuthentication({
    services: ctx.services,
    baseUrl: ctx.baseUrl,
    maxBodyBytes: REGISTRY_MAX_BODY_BYTES,
  });

  r.post('/site-addresses', signed, async (req, res) => {
    const peer = peerOf(req);
    const body = siteAddressRequest.safeParse(jsonBodyOf(req));
    if (!body.success)
      throw invalid('input.invalid', 'the body is { action: claim | release, label, siteId }', {
        issues: body.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code })),
      });
    const { action, ...entry } = body.data;
    const { result } =
      action === 'claim'
        ? await runOperation(ctx, registerAddress, entry, peer, req)
        : await runOperation(ctx, deregisterAddress, entry, peer, req);
    res.status(200).json({ result });
  });

  r.post('/site-addresses/instances', signed, async (req, res) => {
    const { result } = await runOperation(ctx, recordAddressInstance, jsonBodyOf(req), peerOf(req), req);
    res.status(200).json({ result });
  });
  return r;
}
