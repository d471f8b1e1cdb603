// The vault document's read model (docs/assistant.md#the-vault-document), folded inline from the plan
// streams and the settings streams: each finished plan step becomes one Markdown section of the acting
// agent's document, unless the plan owner's vault was off at that point of the log. Everything it writes
// comes from the events and from the log's own positions (read back by stream and version, which never
// change), so `tributary projections rebuild` reproduces every byte.
import { summarizeArguments, type AssistantEventData, type PlanStep } from '@tributary/domain';
import type { ProjectedEvent, Projection, Queryable } from '../shared/projection.js';
import { vaultSection } from './vault-markdown.js';

interface PlanRow {
  owner_agent_id: string;
  acting_agent_id: string;
  hash: string;
  steps: PlanStep[];
  confirmed_at: string | null;
  confirmed_by: string | null;
  confirmed_via: string | null;
}

/** Where an event sits in the log (its stream and version are unique and immutable). */
async function positionOf(db: Queryable, stream: string, version: number): Promise<number | null> {
  const { rows } = await db.query<{ position: string }>(
    `SELECT position FROM events WHERE stream = $1 AND stream_version = $2`,
    [stream, version],
  );
  return rows[0] ? Number(rows[0].position) : null;
}

async function apply(db: Queryable, e: ProjectedEvent): Promise<void> {
  // Assistant events are a person's own: they are never imported from a peer.
  if (e.imported) return;
  const planId = e.stream.startsWith('aplan-') ? e.stream.slice('aplan-'.length) : null;
  switch (e.type) {
    case 'assistant.settings_updated': {
      const d = e.data as AssistantEventData<'assistant.settings_updated'>;
      if (d.vault === undefined) return;
      const agentId = e.stream.slice('asettings-'.length);
      await db.query(
        `INSERT INTO rm_assistant_vault_settings (agent_id, vault) VALUES ($1, $2)
         ON CONFLICT (agent_id) DO UPDATE SET vault = EXCLUDED.vault`,
        [agentId, d.vault],
      );
      return;
    }
    case 'assistant.plan_proposed': {
      const d = e.data as AssistantEventData<'assistant.plan_proposed'>;
      await db.query(
        `INSERT INTO rm_assistant_vault_plans (plan_id, owner_agent_id, acting_agent_id, hash, steps)
         VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT (plan_id) DO NOTHING`,
        [d.planId, d.ownerAgentId, d.actingAgentId, d.hash, JSON.stringify(d.steps)],
      );
      return;
    }
    case 'assistant.plan_confirmed': {
      const d = e.data as AssistantEventData<'assistant.plan_confirmed'>;
      await db.query(
        `UPDATE rm_assistant_vault_plans SET confirmed_at = $2, confirmed_by = $3, confirmed_via = $4
         WHERE plan_id = $1`,
        [planId, e.occurredAt, d.confirmedByAgentId, d.via],
      );
      return;
    }
    case 'assistant.plan_step_finished': {
      const d = e.data as AssistantEventData<'assistant.plan_step_finished'>;
      const { rows } = await db.query<PlanRow>(
        `SELECT p.owner_agent_id, p.acting_agent_id, p.hash, p.steps, p.confirmed_at, p.confirmed_by,
                p.confirmed_via
         FROM rm_assistant_vault_plans p WHERE p.plan_id = $1`,
        [planId],
      );
      const plan = rows[0];
      if (!plan || planId === null) return;
      // The vault as the owner had set it at this point of the log: off means nothing new is added.
      const setting = await db.query<{ vault: boolean }>(
        `SELECT vault FROM rm_assistant_vault_settings WHERE agent_id = $1`,
        [plan.owner_agent_id],
      );
      if (setting.rows[0]?.vault === false) return;
      const step = plan.steps.find((s) => s.step === d.step);
      const events = [];
      for (const ref of d.events)
        events.push({
          type: ref.type,
          stream: ref.stream,
          streamVersion: ref.streamVersion,
          position: ref.position ?? (await positionOf(db, ref.stream, ref.streamVersion)),
        });
      const position = (await positionOf(db, e.stream, e.streamVersion)) ?? 0;
      const markdown = vaultSection({
        planId,
        step: d.step,
        tool: d.tool,
        title: step?.title ?? '',
        args: summarizeArguments(step?.args ?? {}),
        actingAgentId: plan.acting_agent_id,
        ownerAgentId: plan.owner_agent_id,
        hash: plan.hash,
        confirmedAt: plan.confirmed_at,
        confirmedByAgentId: plan.confirmed_by,
        confirmedVia: plan.confirmed_via,
        status: d.status,
        errorCode: d.errorCode ?? null,
        summary: d.summary,
        finishedAt: e.occurredAt,
        position,
        events,
      });
      await db.query(
        `INSERT INTO rm_assistant_vault_entries (plan_id, step, agent_id, owner_agent_id, position, status, markdown)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (plan_id, step) DO NOTHING`,
        [planId, d.step, plan.acting_agent_id, plan.owner_agent_id, position, d.status, markdown],
      );
      return;
    }
    default:
      return;
  }
}

export const assistantVaultProjection: Projection = {
  name: 'assistant-vault',
  mode: 'inline',
  tables: ['rm_assistant_vault_entries', 'rm_assistant_vault_plans', 'rm_assistant_vault_settings'],
  handles: [
    'assistant.settings_updated',
    'assistant.plan_proposed',
    'assistant.plan_confirmed',
    'assistant.plan_step_finished',
  ],
  apply,
};
