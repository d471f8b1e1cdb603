// The payment routes (docs/payments.md): on the global instance, checkout, onboarding, payout and refund
// for a sovereign's signed request or the global instance's own people (session); on a seller's instance,
// the global instance's signed settlement; and Stripe's webhook (public: its signature is the check).
import { invalid, PAYMENTS_REQUEST_MAX_BYTES, unauthenticated, WEBHOOK_MAX_BYTES } from '@tributary/domain';
import {
  createCheckout,
  onboardSeller,
  paymentsEnabled,
  readConnectedAccount,
  receiveWebhook,
  refundReceipt,
  requestPayout,
  settleObligation,
  type Operation,
  composedFor,
  paymentsComposed,
} from '@tributary/services';
import express, { Router, type Request, type RequestHandler } from 'express';
import { peerAuthentication } from '../federation/index.js';
import type { HttpContext } from '../http/index.js';
import { clientAddressKey, runOperation, sendProblem } from '../http/index.js';
import { webhookRefusals } from './webhook-refusals.js';
import { SETTLEMENT_PATH } from './payments-clients.js';

function jsonBodyOf(req: Request): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(req.rawBody));
  } catch {
    throw invalid('request.malformed_json', 'the request body is not UTF-8 JSON');
  }
}

const signed = (req: Request) =>
  req.headers['signature'] !== undefined || req.headers['signature-input'] !== undefined;

export function paymentsRoutes(ctx: HttpContext, o: { browserWrites: RequestHandler[] }): Router {
  const r = Router();
  const peerAuth = peerAuthentication({
    services: ctx.services,
    baseUrl: ctx.baseUrl,
    maxBodyBytes: PAYMENTS_REQUEST_MAX_BYTES,
  });
  // A signed request is a peer's; anything else is a browser or API write with the session's rules.
  const peerOrSession: RequestHandler = async (req, res, next) => {
    if (signed(req)) return peerAuth(req, res, next);
    // The session's browser-write guards, in order; each calls back (or throws) before the next runs.
    for (const guard of o.browserWrites) {
      // A guard either calls back (maybe with an error) or throws; a guard that answers by itself
      // (none of ours does) would leave the request to it.
      await new Promise<void>((resolve, reject) => {
        const done = (err?: unknown) =>
          err !== undefined && err !== null ? reject(err as Error) : resolve();
        try {
          Promise.resolve(guard(req, res, done)).catch(reject);
        } catch (e) {
          reject(e as Error);
        }
      });
    }
    next();
  };
  const paymentRoute = (op: Operation<never, unknown>): RequestHandler => {
    return async (req, res) => {
      const peer = req.principal?.kind === 'peer' ? req.principal : null;
      const input = peer ? jsonBodyOf(req) : (req.body ?? {});
      const { result } = await runOperation(ctx, op, input, peer ?? req, req);
      res.status(200).json({ result });
    };
  };
  r.post('/stripe/checkout', peerOrSession, paymentRoute(createCheckout as Operation<never, unknown>));
  r.post('/connect/onboarding', peerOrSession, paymentRoute(onboardSeller as Operation<never, unknown>));
  r.post('/connect/account', peerOrSession, paymentRoute(readConnectedAccount as Operation<never, unknown>));
  r.post('/connect/payout', peerOrSession, paymentRoute(requestPayout as Operation<never, unknown>));
  r.post('/stripe/refund', peerOrSession, paymentRoute(refundReceipt as Operation<never, unknown>));

  r.post(SETTLEMENT_PATH.replace('/api/federation', ''), peerAuth, async (req, res) => {
    if (req.principal?.kind !== 'peer')
      throw unauthenticated('federation.signature_required', 'sign the request');
    const { result } = await runOperation(ctx, settleObligation, jsonBodyOf(req), req.principal, req);
    res.status(200).json({ result });
  });

  // Stripe's webhook: the raw bytes as sent (the signature covers them), bounded; answered as soon as the
  // event is recorded; the work is done by the consumer of the log. Deliveries refused as not Stripe's
  // are counted per address, with the server's fast path (webhook-refusals.ts).
  const refusals = webhookRefusals(ctx.limits.webhookRefusals);
  r.post('/stripe/webhook', express.raw({ type: () => true, limit: WEBHOOK_MAX_BYTES }), async (req, res) => {
    const address = clientAddressKey(req);
    const limited = refusals.limited(address);
    if (limited) return sendProblem(res, limited);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = req.headers['stripe-signature'];
    try {
      const { eventId, duplicate } = await receiveWebhook(
        composedFor(ctx.services, paymentsComposed),
        body,
        Array.isArray(signature) ? signature[0] : signature,
      );
      res.status(200).json({ received: true, eventId, duplicate });
    } catch (e) {
      refusals.count(address, e);
      throw e;
    }
  });

  r.get('/stripe/status', (_req, res) => {
    res.json({ payments: paymentsEnabled(ctx.services) ? 'enabled' : 'disabled' });
  });
  return r;
}
