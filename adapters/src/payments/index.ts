// The payments surface: the Stripe implementation of the Payments port, the payment routes and the webhook.
export * from './stripe-processor.js';
