import { emailSchema, handleSchema, uuidSchema } from '@tributary/domain';
import { z } from 'zod';

export const targetAgentId = uuidSchema
  .optional()
  .describe('the agent or persona acted for; defaults to your own');
export const password = z.string().min(10, 'at least 10 characters').max(200);
export const displayName = z.string().trim().min(1).max(100);
export { emailSchema, handleSchema };

export const agentOutput = z.object({
  agentId: z.string(),
  kind: z.string(),
  name: z.string(),
  handle: z.string().nullable(),
  ownerAgentId: z.string().nullable(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
});
