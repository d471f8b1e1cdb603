// Reads of the vault document's read model: an agent's sections in log order, under the fixed header.
import type { Queryable } from '../shared/projection.js';
import { vaultDocument } from './vault-markdown.js';

export function createAssistantVaultReadModels(db: Queryable) {
  return {
    async vaultDocument(agentId: string) {
      const { rows } = await db.query<{ markdown: string; position: string }>(
        `SELECT markdown, position FROM rm_assistant_vault_entries WHERE agent_id = $1
         ORDER BY position, plan_id, step`,
        [agentId],
      );
      return {
        agentId,
        markdown: vaultDocument(
          agentId,
          rows.map((r) => r.markdown),
        ),
        entries: rows.length,
        lastPosition: rows.length === 0 ? null : Number(rows[rows.length - 1]!.position),
      };
    },
  };
}
