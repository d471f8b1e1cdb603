// This area's projections, in the order a rebuild applies them; projections/src/all-projections.ts composes them.
import type { Projection } from '../shared/projection.js';
import { mailRequestsProjection } from './mail-requests-projection.js';
import { submissionNoticesProjection } from './submission-notices-projection.js';

export const mailProjections: readonly Projection[] = [mailRequestsProjection, submissionNoticesProjection];
