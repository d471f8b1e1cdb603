// The attachment operations of this area; the area's list (operations.ts) composes them.
import type { AnyOperation } from '../pipeline/operation.js';
import { addAttachment } from './add-attachment.js';

export const assistantAttachmentOperations: readonly AnyOperation[] = [addAttachment];
