// The assistant's chat operations, in catalogue order (the area's list, operations.ts, composes them).
import type { AnyOperation } from '../pipeline/operation.js';
import { chat } from './chat.js';

export const assistantChatOperations: readonly AnyOperation[] = [chat];
