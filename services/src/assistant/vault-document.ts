// The vault document (docs/assistant.md#the-vault-document): Markdown per agent, made by the vault
// projection from the log. The routes, the tool and the turn loop (as context) all read it here.
import type { AssistantOperationServices } from './assistant-operation.js';
import type { VaultDocumentView } from './ports/assistant-vault-read-models.js';

export async function readVaultDocument(
  services: AssistantOperationServices,
  agentId: string,
): Promise<VaultDocumentView> {
  return services.assistant.read.vault.vaultDocument(agentId);
}
