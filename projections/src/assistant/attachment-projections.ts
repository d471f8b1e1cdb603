// The attachment projections of this area; the area's list (projections.ts) composes them.
import type { Projection } from '../shared/projection.js';
import { assistantAttachmentsProjection } from './attachments-projection.js';

export const assistantAttachmentProjections: readonly Projection[] = [assistantAttachmentsProjection];
