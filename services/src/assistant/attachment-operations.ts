// The attachment operations of this area; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { addAttachment } from './add-attachment.js';

export const assistantAttachmentOperations: readonly AnyOperation[] = [addAttachment];
