// The admin area: the instance's operators.
export * from './account-of.js';
export * from './disable-account.js';
export * from './grant-controller.js';
export * from './move-controller.js';
export * from './operations.js';
export * from './admin-operation.js';
