// Query functions over rm_assistant_*; shapes match the services' AssistantThreadReadModels port.
import type { DeclinedCall, PlanStep, StepStatus, UntrustedSource } from '@tributary/domain';
import { textArray, type Queryable } from '../shared/projection.js';
import { iso } from '../shared/iso.js';

// The shapes of the services' AssistantThreadReadModels port (projections do not import services).
export interface AssistantThreadView {
  threadId: string;
  ownerAgentId: string;
  title: string;
  startedAt: string;
  lastActivityAt: string;
  messageCount: number;
}
export interface AssistantMessageView {
  messageId: string;
  threadId: string;
  seq: number;
  role: 'person' | 'assistant';
  text: string;
  attachmentIds: string[];
  planId: string | null;
  declined: DeclinedCall[];
  autoRan: { tool: string; outcome: string }[];
  untrustedSources: UntrustedSource[];
  model: string | null;
  addedAt: string;
}
export interface AssistantPlanStepView extends PlanStep {
  status: StepStatus;
  errorCode: string | null;
  summary: string | null;
  events: { id: string; type: string; stream: string; streamVersion: number }[];
  finishedAt: string | null;
}
export interface AssistantPlanView {
  planId: string;
  threadId: string;
  messageId: string;
  ownerAgentId: string;
  actingAgentId: string;
  hash: string;
  expiresAt: string;
  proposedAt: string;
  confirmedHash: string | null;
  confirmedAt: string | null;
  confirmedByAgentId: string | null;
  confirmedVia: string | null;
  steps: AssistantPlanStepView[];
}

interface ThreadRow {
  thread_id: string;
  owner_agent_id: string;
  title: string;
  started_at: Date;
  last_activity_at: Date;
  message_count: number;
}
const toThread = (r: ThreadRow): AssistantThreadView => ({
  threadId: r.thread_id,
  ownerAgentId: r.owner_agent_id,
  title: r.title,
  startedAt: r.started_at.toISOString(),
  lastActivityAt: r.last_activity_at.toISOString(),
  messageCount: r.message_count,
});

interface MessageRow {
  message_id: string;
  thread_id: string;
  seq: number;
  role: AssistantMessageView['role'];
  text: string;
  attachment_ids: string[];
  plan_id: string | null;
  declined: AssistantMessageView['declined'] | null;
  auto_ran: AssistantMessageView['autoRan'] | null;
  untrusted_sources: AssistantMessageView['untrustedSources'] | null;
  model: string | null;
  added_at: Date;
}
const toMessage = (r: MessageRow): AssistantMessageView => ({
  messageId: r.message_id,
  threadId: r.thread_id,
  seq: r.seq,
  role: r.role,
  text: r.text,
  attachmentIds: r.attachment_ids,
  planId: r.plan_id,
  declined: r.declined ?? [],
  autoRan: r.auto_ran ?? [],
  untrustedSources: r.untrusted_sources ?? [],
  model: r.model,
  addedAt: r.added_at.toISOString(),
});

interface PlanRow {
  plan_id: string;
  thread_id: string;
  message_id: string;
  owner_agent_id: string;
  acting_agent_id: string;
  hash: string;
  expires_at: Date;
  proposed_at: Date;
  confirmed_hash: string | null;
  confirmed_at: Date | null;
  confirmed_by_agent_id: string | null;
  confirmed_via: string | null;
}
interface StepRow {
  plan_id: string;
  step: number;
  tool: string;
  title: string;
  args: Record<string, unknown>;
  writes: boolean;
  untrusted: AssistantPlanStepView['untrusted'];
  status: AssistantPlanStepView['status'];
  error_code: string | null;
  summary: string | null;
  events: AssistantPlanStepView['events'] | null;
  finished_at: Date | null;
}
const toStep = (r: StepRow): AssistantPlanStepView => ({
  step: r.step,
  tool: r.tool,
  title: r.title,
  args: r.args,
  writes: r.writes,
  untrusted: r.untrusted,
  status: r.status,
  errorCode: r.error_code,
  summary: r.summary,
  events: r.events ?? [],
  finishedAt: iso(r.finished_at),
});
const toPlan = (r: PlanRow, steps: StepRow[]): AssistantPlanView => ({
  planId: r.plan_id,
  threadId: r.thread_id,
  messageId: r.message_id,
  ownerAgentId: r.owner_agent_id,
  actingAgentId: r.acting_agent_id,
  hash: r.hash,
  expiresAt: r.expires_at.toISOString(),
  proposedAt: r.proposed_at.toISOString(),
  confirmedHash: r.confirmed_hash,
  confirmedAt: iso(r.confirmed_at),
  confirmedByAgentId: r.confirmed_by_agent_id,
  confirmedVia: r.confirmed_via,
  steps: steps.filter((s) => s.plan_id === r.plan_id).map(toStep),
});

export function createAssistantThreadReadModels(db: Queryable) {
  async function plansWhere(where: string, values: unknown[]): Promise<AssistantPlanView[]> {
    const { rows } = await db.query<PlanRow>(
      `SELECT * FROM rm_assistant_plans WHERE ${where} ORDER BY proposed_at, plan_id`,
      values,
    );
    if (rows.length === 0) return [];
    const steps = await db.query<StepRow>(
      `SELECT * FROM rm_assistant_plan_steps WHERE plan_id = ANY(${textArray(1)}) ORDER BY plan_id, step`,
      [JSON.stringify(rows.map((r) => r.plan_id))],
    );
    return rows.map((r) => toPlan(r, steps.rows));
  }
  return {
    async threadsOf(
      ownerAgentId: string,
      page: { limit: number; before?: string | undefined },
    ): Promise<AssistantThreadView[]> {
      const { rows } = page.before
        ? await db.query<ThreadRow>(
            `SELECT t.* FROM rm_assistant_threads t,
                    (SELECT last_activity_at, thread_id FROM rm_assistant_threads
                      WHERE thread_id = $2 AND owner_agent_id = $1) b
              WHERE t.owner_agent_id = $1 AND (t.last_activity_at, t.thread_id) < (b.last_activity_at, b.thread_id)
              ORDER BY t.last_activity_at DESC, t.thread_id DESC LIMIT $3`,
            [ownerAgentId, page.before, page.limit],
          )
        : await db.query<ThreadRow>(
            `SELECT * FROM rm_assistant_threads WHERE owner_agent_id = $1
              ORDER BY last_activity_at DESC, thread_id DESC LIMIT $2`,
            [ownerAgentId, page.limit],
          );
      return rows.map(toThread);
    },
    async thread(threadId: string): Promise<AssistantThreadView | null> {
      const { rows } = await db.query<ThreadRow>('SELECT * FROM rm_assistant_threads WHERE thread_id = $1', [
        threadId,
      ]);
      return rows[0] ? toThread(rows[0]) : null;
    },
    async messagesOf(
      threadId: string,
      page: { limit: number; after?: number | undefined },
    ): Promise<AssistantMessageView[]> {
      const { rows } = await db.query<MessageRow>(
        `SELECT * FROM rm_assistant_messages WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [threadId, page.after ?? 0, page.limit],
      );
      return rows.map(toMessage);
    },
    async plan(planId: string): Promise<AssistantPlanView | null> {
      return (await plansWhere('plan_id = $1', [planId]))[0] ?? null;
    },
    async planByHash(hash: string): Promise<AssistantPlanView | null> {
      return (await plansWhere('hash = $1', [hash]))[0] ?? null;
    },
    async plansOf(planIds: readonly string[]): Promise<AssistantPlanView[]> {
      if (planIds.length === 0) return [];
      return plansWhere(`plan_id = ANY(${textArray(1)})`, [JSON.stringify(planIds)]);
    },
  };
}
