// The assistant area (docs/assistant.md).
export * from './plan-hash.js';
export * from './propose-plan.js';
export * from './read-settings.js';
export * from './builtin-planner.js';
export * from './chat.js';
export * from './chat-operations.js';
export * from './turn-observer.js';
export { offeredTools, type OfferedTool, type ToolOffer } from './offered-tools.js';
export { wrapUntrusted, markUntrusted, type UntrustedText } from './untrusted.js';
