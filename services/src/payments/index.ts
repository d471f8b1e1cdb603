// The payments area (docs/payments.md).
export * from './payments-of.js';
