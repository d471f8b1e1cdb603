// OpenAPI paths of payments (docs/payments.md): the global instance's payment routes (a sovereign's signed
// request, or a session of the global instance's own people), the settlement a seller's instance takes
// from the global instance, Stripe's webhook and the payments status.
import {
  createCheckout,
  onboardSeller,
  readConnectedAccount,
  refundReceipt,
  requestPayout,
  settleObligation,
  type Operation,
} from '@tributary/services';
import {
  openApiJson as json,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];
const peerOrSession = [...peerSigned, ...session];

function routeOf(op: Operation<never, unknown>, security: unknown[], summary: string) {
  return {
    post: {
      operationId: op.name,
      summary,
      description: op.description,
      tags: ['payments'],
      security,
      requestBody: { required: true, content: { 'application/json': { schema: json(op.input) } } },
      responses: {
        '200': {
          description: 'Done',
          content: {
            'application/json': {
              schema: { type: 'object', properties: { result: op.output ? json(op.output) : {} } },
            },
          },
        },
        default: problem,
      },
    },
  };
}

export function paymentPaths(): Record<string, unknown> {
  const op = (o: unknown) => o as Operation<never, unknown>;
  return {
    '/api/federation/stripe/checkout': routeOf(
      op(createCheckout),
      peerOrSession,
      'On the global instance: open a Stripe checkout for a seller’s recorded obligation',
    ),
    '/api/federation/connect/onboarding': routeOf(
      op(onboardSeller),
      peerOrSession,
      'On the global instance only: a connected account (created once) and an onboarding link',
    ),
    '/api/federation/connect/account': routeOf(
      op(readConnectedAccount),
      peerOrSession,
      'On the global instance only: the state of a party’s connected account (null when it has none)',
    ),
    '/api/federation/connect/payout': routeOf(
      op(requestPayout),
      peerOrSession,
      'On the global instance: an operator, or a sovereign peer by its signed request, pays a payee’s connected account for a job',
    ),
    '/api/federation/stripe/refund': routeOf(
      op(refundReceipt),
      peerOrSession,
      'On the global instance only: refund all or part of a receipt',
    ),
    '/api/federation/stripe/settlement': routeOf(
      op(settleObligation),
      peerSigned,
      'On a seller’s instance, signed by the global instance: an obligation was paid',
    ),
    '/api/federation/stripe/webhook': {
      post: {
        operationId: 'payments.webhook',
        summary: 'Stripe’s webhook: a signed event (Stripe-Signature over the raw body, 300 s tolerance)',
        tags: ['payments'],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: {
          '200': { description: '{ received: true, eventId, duplicate }: recorded (once by its id)' },
          '429': {
            description:
              'request.rate_limited: this address spent its budget of refused deliveries (RATE_LIMIT_WEBHOOK_REFUSALS); Retry-After',
          },
          default: problem,
        },
      },
    },
    '/api/federation/stripe/status': {
      get: {
        operationId: 'payments.status',
        summary: 'Whether payments are configured on this instance',
        tags: ['payments'],
        security: [],
        responses: { '200': { description: '{ payments: "enabled" | "disabled" }' } },
      },
    },
  };
}
