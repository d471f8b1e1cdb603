// POST /api/federation/stripe/webhook answered before Express (docs/payments.md#exactly-once), as published
// sites and cached Web of Worlds graphs are: the same service call (receiveWebhook), the same body limit
// (WEBHOOK_MAX_BYTES), the same answers (`{ received, eventId, duplicate }`, or problem+json with the
// route's stable codes), the same request id, access line and security headers, without the application's
// middleware and routing, which cost more than half of an intake's time (docs/benchmarks.md, row 15).
// Anything else — another method or path, a compressed body (Express's body reader inflates it) — falls
// through to the app, whose route stays the reference (and the catalogue's OpenAPI entry). Both count the
// deliveries they refuse as not Stripe's against one budget per address (webhook-refusals.ts).
import { WEBHOOK_MAX_BYTES } from '@tributary/domain';
import { composedFor, paymentsComposed, receiveWebhook, type Services } from '@tributary/services';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import {
  addressKey,
  logRequest,
  problemOf,
  readBoundedBody,
  writeProblem,
  type Problem,
} from '../http/index.js';
import type { WebhookRefusals } from './webhook-refusals.js';

export const STRIPE_WEBHOOK_PATH = '/api/federation/stripe/webhook';
/** Bytes of a refused body read and thrown away (so the client sees the answer) before hanging up. */

export interface StripeWebhookFastPathOptions {
  services: Services;
  logger: Logger;
  /** The body limit; WEBHOOK_MAX_BYTES, as the app's route (tests may lower it). */
  maxBytes?: number;
  /** Refused deliveries per address, shared with the app's route (webhook-refusals.ts). */
  refusals: WebhookRefusals;
  /** The app's TRUST_PROXY decision, so a client is the same address here as in Express. */
  trustProxy: (address: string, hop: number) => boolean;
}

/** The path of a request URL (its query string, which the route ignores, dropped). */
const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

export function createStripeWebhookFastPath(o: StripeWebhookFastPathOptions) {
  const max = o.maxBytes ?? WEBHOOK_MAX_BYTES;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST' || pathOf(req.url ?? '') !== STRIPE_WEBHOOK_PATH) return false;
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return false;
    logRequest({ logger: o.logger }, req, res);
    // What the app sets on every answer: nothing sniffed, no referrer, nothing cached.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    const refuse = (p: Problem) =>
      writeProblem(req, res, p, { instance: req.url ?? STRIPE_WEBHOOK_PATH, requestId: req.id });
    void readBoundedBody(req, max).then(
      async (body) => {
        if (body === null)
          return refuse({ status: 413, code: 'request.too_large', title: 'The request body is too large' });
        const address = addressKey(proxyAddr(req, o.trustProxy));
        const limited = o.refusals.limited(address);
        if (limited) return refuse(limited);
        try {
          const signature = req.headers['stripe-signature'];
          const { eventId, duplicate } = await receiveWebhook(
            composedFor(o.services, paymentsComposed),
            body,
            Array.isArray(signature) ? signature[0] : signature,
          );
          if (res.destroyed) return;
          const json = JSON.stringify({ received: true, eventId, duplicate });
          res.statusCode = 200;
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.setHeader('Content-Length', String(Buffer.byteLength(json)));
          res.end(json);
        } catch (e) {
          // The client is gone (it hung up, or a timeout closed the connection): no one to answer.
          o.refusals.count(address, e);
          if (res.destroyed) return void req.log.debug({ err: e }, 'error after the connection closed');
          refuse(problemOf(e, req.log));
        }
      },
      // The body never arrived whole (the client hung up): no one to answer.
      (err: unknown) => {
        req.log.debug({ err }, 'webhook body not read');
        if (!res.destroyed) res.destroy();
      },
    );
    return true;
  };
}
export type StripeWebhookFastPath = ReturnType<typeof createStripeWebhookFastPath>;
