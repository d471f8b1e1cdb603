// The payments surface: the Stripe implementation of the Payments port, the signed clients between
// instances, the payment routes and the webhook.
export * from './stripe-processor.js';
export * from './payments-clients.js';
export * from './payments-routes.js';
export * from './webhook-fast-path.js';
export * from './webhook-refusals.js';
export { paymentPaths } from './openapi-payments.js';
