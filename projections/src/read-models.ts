// Every area's queries in one object, nested by area as the services' ReadModels port is; each area's
// queries live in its folder.
import { createAccountReadModels } from './accounts/index.js';
import { createAgentReadModels } from './agents/index.js';
import { createInstanceReadModels } from './instance/index.js';
import { createAgentAccessReadModels } from './tokens/index.js';
import { createOAuthReadModels } from './oauth/index.js';
import {
  createAddressReadModels,
  createBuilderDomainReadModels,
  createBuilderReadModels,
  createMediaReadModels,
  createFormReadModels,
} from './builder/index.js';
import {
  createAssistantThreadReadModels,
  createAssistantVaultReadModels,
  createAttachmentReadModels,
} from './assistant/index.js';
import { createManifestReadModels } from './manifests/index.js';
import { createPresenceReadModels } from './spatial/index.js';
import type { Queryable } from './shared/projection.js';

export function createReadModels(db: Queryable) {
  // Nested by area, as the services' ReadModels port is.
  return {
    instance: createInstanceReadModels(db),
    agents: createAgentReadModels(db),
    accounts: createAccountReadModels(db),
    tokens: createAgentAccessReadModels(db),
    oauth: createOAuthReadModels(db),
    builder: {
      ...createBuilderReadModels(db),
      ...createBuilderDomainReadModels(db),
      ...createMediaReadModels(db),
      ...createAddressReadModels(db),
      ...createFormReadModels(db),
    },
    assistantThreads: createAssistantThreadReadModels(db),
    assistantVault: createAssistantVaultReadModels(db),
    manifests: createManifestReadModels(db),
    presence: createPresenceReadModels(db),
    assistantAttachments: createAttachmentReadModels(db),
  };
}
