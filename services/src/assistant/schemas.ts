import { ASSISTANT_LIMITS } from '@tributary/domain';
import { z } from 'zod';

/** Chosen step numbers (1-based). */
export const stepsSchema = z
  .array(z.number().int().min(1).max(ASSISTANT_LIMITS.planMaxSteps))
  .min(1)
  .max(ASSISTANT_LIMITS.planMaxSteps);
