// The instance area: its initialization and what a caller is told about it.
export * from './initialize-instance.js';
export * from './instance-keys.js';
export * from './operations.js';
export * from './read-context.js';
export * from './settings.js';
export * from './rotate-key.js';
export * from './revoke-key.js';
export * from './instance-operation.js';
export * from './ports.js';
