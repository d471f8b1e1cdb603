// The attachment projections of this area; projections/src/all-projections.ts composes the lists.
import type { Projection } from '../shared/projection.js';
import { assistantAttachmentsProjection } from './attachments-projection.js';

export const assistantAttachmentProjections: readonly Projection[] = [assistantAttachmentsProjection];
