// What the assistant's vault document reads from its projection (rm_assistant_vault_entries).
export interface VaultDocumentView {
  agentId: string;
  /** The whole document: a fixed header, then one section per finished plan step, in log order. */
  markdown: string;
  /** Finished plan steps in the document. */
  entries: number;
  /** The log position of the newest step in it; null when empty. */
  lastPosition: number | null;
}

export interface AssistantVaultReadModels {
  vaultDocument(agentId: string): Promise<VaultDocumentView>;
}
