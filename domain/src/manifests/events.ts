// Universal manifests per entity (docs/manifests.md): whether an agent's owner lets this instance publish
// a signed manifest of it at /api/universal-manifest/<kind>/<id>. Sites and worlds need no such flag:
// publishing a site, or making a world public, is already the owner's choice to show it.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

export const manifestPublicationSet = defineEvent({
  type: 'manifest.publication_set',
  version: 1,
  // The manifest is served by the entity's home instance only; peers have nothing to do with the flag.
  federable: false,
  public: false,
  data: z.strictObject({ agentId: z.string(), published: z.boolean() }),
});

export const manifestsEvents = [manifestPublicationSet] as const satisfies readonly EventDefinition[];
