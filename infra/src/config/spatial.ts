// Hosted worlds (docs/spatial.md).
import { z } from 'zod';

export const spatialVariables = {
  // Travellers (docs/spatial.md#travellers): a presentation's lifetime, and a presence's at our door.
  SPATIAL_PRESENTATION_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
  SPATIAL_PRESENCE_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
};
