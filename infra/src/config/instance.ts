// The instance itself: its role in the federation, its name, the global instance, Matrix discovery.
import { INSTANCE_ROLES } from '@tributary/domain';
import { z } from 'zod';

export const instanceVariables = {
  INSTANCE_ROLE: z.enum(INSTANCE_ROLES).default('person'),
  INSTANCE_NAME: z.string().min(1).max(100).default('Tributary'),
  GLOBAL_URL: z.string().url().optional(),
  // How long a released address is held back for its previous owner.
  ADDRESS_HOLD_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  // Matrix discovery (/.well-known/matrix/client and /server): the homeserver this domain delegates to.
  MATRIX_HOMESERVER_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'MATRIX_HOMESERVER_URL must be http(s)')
    .optional(),
  // Server-server delegation as `host[:port]`; unset: the homeserver URL's host, with its port or 443.
  MATRIX_SERVER: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/, 'MATRIX_SERVER: host[:port]')
    .optional(),
};
