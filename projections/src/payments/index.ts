// The payments area's read models (docs/payments.md#records).
export * from './payments-projection.js';
export * from './payments-read-models.js';
export * from './projections.js';
