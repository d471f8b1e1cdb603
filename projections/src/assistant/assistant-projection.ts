// Inline projection of the assistant's threads (athread-<id>) and plans (aplan-<id>) into
// rm_assistant_threads, rm_assistant_messages, rm_assistant_plans and rm_assistant_plan_steps, in the
// append's own transaction: a confirm finds the plan it was just shown, and a thread lists the message
// that was just added. Statements only (no reads), so an append stays one round trip. A deleted thread's
// rows go, its messages and plans with them; the log keeps every event (docs/assistant.md#threads).
// Assistant events never federate, and the projection does not opt in to peers' events (foldsImported).
import type { AssistantEventData as EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

const threadOf = (e: ProjectedEvent) => e.stream.slice('athread-'.length);
const planOf = (e: ProjectedEvent) => e.stream.slice('aplan-'.length);
const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

function assistantStatements(e: ProjectedEvent): SqlStatement[] {
  switch (e.type) {
    case 'assistant.thread_started': {
      const d = e.data as EventData<'assistant.thread_started'>;
      return [
        {
          text: `INSERT INTO rm_assistant_threads (thread_id, owner_agent_id, title, started_at, last_activity_at)
                 VALUES ($1, $2, $3, $4, $4)`,
          values: [d.threadId, d.ownerAgentId, d.title, e.occurredAt],
        },
      ];
    }
    case 'assistant.message_added': {
      const d = e.data as EventData<'assistant.message_added'>;
      const threadId = threadOf(e);
      return [
        // Only into a live thread: the owner comes from the thread's row.
        {
          text: `INSERT INTO rm_assistant_messages (message_id, thread_id, owner_agent_id, seq, role, text,
                   attachment_ids, plan_id, declined, auto_ran, untrusted_sources, model, added_at)
                 SELECT $1, $2, owner_agent_id, $3, $4, $5, $6::jsonb, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11, $12
                   FROM rm_assistant_threads WHERE thread_id = $2`,
          values: [
            d.messageId,
            threadId,
            e.streamVersion,
            d.role,
            d.text,
            JSON.stringify(d.attachmentIds),
            d.planId ?? null,
            json(d.declined),
            json(d.autoRan),
            json(d.untrustedSources),
            d.model ?? null,
            e.occurredAt,
          ],
        },
        {
          text: `UPDATE rm_assistant_threads SET message_count = message_count + 1,
                   last_activity_at = GREATEST(last_activity_at, $2::timestamptz)
                 WHERE thread_id = $1`,
          values: [threadId, e.occurredAt],
        },
      ];
    }
    case 'assistant.thread_deleted': {
      const threadId = threadOf(e);
      return [
        { text: `DELETE FROM rm_assistant_messages WHERE thread_id = $1`, values: [threadId] },
        {
          text: `DELETE FROM rm_assistant_plan_steps
                  WHERE plan_id IN (SELECT plan_id FROM rm_assistant_plans WHERE thread_id = $1)`,
          values: [threadId],
        },
        { text: `DELETE FROM rm_assistant_plans WHERE thread_id = $1`, values: [threadId] },
        { text: `DELETE FROM rm_assistant_threads WHERE thread_id = $1`, values: [threadId] },
      ];
    }
    case 'assistant.plan_proposed': {
      const d = e.data as EventData<'assistant.plan_proposed'>;
      return [
        {
          text: `INSERT INTO rm_assistant_plans (plan_id, thread_id, message_id, owner_agent_id, acting_agent_id,
                   hash, expires_at, proposed_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          values: [
            d.planId,
            d.threadId,
            d.messageId,
            d.ownerAgentId,
            d.actingAgentId,
            d.hash,
            d.expiresAt,
            e.occurredAt,
          ],
        },
        {
          text: `INSERT INTO rm_assistant_plan_steps (plan_id, step, tool, title, args, writes, untrusted, status)
                 SELECT $1, s.step, s.tool, s.title, s.args, s.writes, s.untrusted, 'pending'
                   FROM jsonb_to_recordset($2::jsonb)
                     AS s(step integer, tool text, title text, args jsonb, writes boolean, untrusted jsonb)`,
          values: [d.planId, JSON.stringify(d.steps)],
        },
      ];
    }
    case 'assistant.plan_confirmed': {
      const d = e.data as EventData<'assistant.plan_confirmed'>;
      const planId = planOf(e);
      return [
        {
          text: `UPDATE rm_assistant_plans SET confirmed_hash = $2, confirmed_at = $3, confirmed_by_agent_id = $4,
                   confirmed_via = $5 WHERE plan_id = $1`,
          values: [planId, d.hash, e.occurredAt, d.confirmedByAgentId, d.via],
        },
        {
          text: `UPDATE rm_assistant_plan_steps
                    SET status = CASE WHEN step IN (SELECT jsonb_array_elements_text($2::jsonb)::integer)
                                      THEN 'confirmed' ELSE 'cancelled' END
                  WHERE plan_id = $1 AND status = 'pending'`,
          values: [planId, JSON.stringify(d.steps)],
        },
      ];
    }
    case 'assistant.plan_cancelled': {
      const d = e.data as EventData<'assistant.plan_cancelled'>;
      return [
        {
          text: `UPDATE rm_assistant_plan_steps SET status = 'cancelled'
                  WHERE plan_id = $1 AND status = 'pending'
                    AND step IN (SELECT jsonb_array_elements_text($2::jsonb)::integer)`,
          values: [planOf(e), JSON.stringify(d.steps)],
        },
      ];
    }
    case 'assistant.plan_step_finished': {
      const d = e.data as EventData<'assistant.plan_step_finished'>;
      return [
        {
          text: `UPDATE rm_assistant_plan_steps SET status = $3, error_code = $4, summary = $5, events = $6::jsonb,
                   finished_at = $7 WHERE plan_id = $1 AND step = $2`,
          values: [
            planOf(e),
            d.step,
            d.status,
            d.errorCode ?? null,
            d.summary,
            JSON.stringify(d.events),
            e.occurredAt,
          ],
        },
      ];
    }
    default:
      return [];
  }
}

export const assistantProjection: Projection = {
  name: 'assistant-threads-plans',
  mode: 'inline',
  tables: ['rm_assistant_threads', 'rm_assistant_messages', 'rm_assistant_plans', 'rm_assistant_plan_steps'],
  handles: [
    'assistant.thread_started',
    'assistant.message_added',
    'assistant.thread_deleted',
    'assistant.plan_proposed',
    'assistant.plan_confirmed',
    'assistant.plan_cancelled',
    'assistant.plan_step_finished',
  ],
  statements: assistantStatements,
  apply: (db, e) => runStatements(db, assistantStatements(e)),
};
