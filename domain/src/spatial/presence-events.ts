// Presence at a hosted world's door (docs/spatial.md#presence). Each admission is an event on a stream
// named by the presentation's issuer and nonce, so a replayed presentation finds its stream taken — the
// log itself burns the nonce, durably and under concurrency — and the admission stays on record as the
// decision it was (who came in, on whose signature, until when). Neither federable nor public: it is a
// traveller's personal data shared with this world only.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { travellerContentSchema } from './traveller-presentation.js';

export const presenceAdmitted = defineEvent({
  type: 'presence.admitted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    /** The presence's id (GET /wow/user/<receiptId>); a renewal keeps the live presence's. */
    receiptId: z.string(),
    worldId: z.string(),
    /** `urn:uuid:<agent id at the issuer>`. */
    subject: z.string(),
    issuerInstanceId: z.string(),
    issuerBaseUrl: z.string(),
    presentationId: z.string(),
    nonce: z.string(),
    content: travellerContentSchema,
    /** Whether this admission extended a presence that was still live. */
    renewal: z.boolean(),
    expiresAt: z.string(),
  }),
});

export const presenceEvents = [presenceAdmitted] as const satisfies readonly EventDefinition[];
