// svc.manifest.set_publication: an agent's owner turns its universal manifest on or off
// (docs/manifests.md). Off until they choose; only person, persona, group, locale and region agents.
import {
  AGENT_KINDS_OF_MANIFEST,
  decideSetManifestPublication,
  invalid,
  manifestPublicationStream,
  type ManifestPublicationState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineManifestsOperation } from './manifests-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { entityManifestUrl } from './entity-manifest.js';

const manifestKindOf = (agentKind: string) =>
  (Object.keys(AGENT_KINDS_OF_MANIFEST) as ('person' | 'organization')[]).find((k) =>
    AGENT_KINDS_OF_MANIFEST[k].includes(agentKind),
  );

export const setManifestPublication = defineManifestsOperation({
  name: 'svc.manifest.set_publication',
  title: 'Publish or withdraw an agent’s universal manifest',
  description:
    'Turn the signed universal manifest of the acting agent (a person, a persona, or a group, locale or region agent you control) on or off at /api/universal-manifest/<kind>/<agentId>. Off until set. Setting it to what it is writes nothing.',
  kind: 'command',
  scopes: ['svc.manifest.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, published: z.boolean() }),
  output: z.object({
    agentId: z.string(),
    kind: z.enum(['person', 'organization']),
    published: z.boolean(),
    manifestUrl: z.string(),
  }),
  async run(ctx, input) {
    const agentId = ctx.actor.agentId;
    const kind = manifestKindOf(ctx.actor.kind);
    if (!kind)
      throw invalid('manifest.not_an_agent_manifest', 'this agent has no universal manifest of its own', {
        agentKind: ctx.actor.kind,
      });
    const stream = manifestPublicationStream(agentId);
    await ctx.commit([stream], (states) =>
      decideSetManifestPublication(
        { agentId, published: input.published },
        states.get(stream) as ManifestPublicationState,
      ),
    );
    return {
      agentId,
      kind,
      published: input.published,
      manifestUrl: entityManifestUrl(ctx.instance.baseUrl, kind, agentId),
    };
  },
});
