// The assistant's threads and plans read models, by the rules of
// projections/src/assistant/assistant-projection.ts and its queries, folded from the in-memory log.
import type { AssistantEventData as D } from '@tributary/domain';
import type {
  AssistantThreadReadModels,
  MessageView,
  PlanView,
  StoredEvent,
  ThreadView,
} from '@tributary/services';

interface Folded {
  threads: Map<string, ThreadView>;
  messages: Map<string, MessageView & { ownerAgentId: string }>;
  plans: Map<string, PlanView>;
}

function fold(events: readonly StoredEvent[]): Folded {
  const f: Folded = { threads: new Map(), messages: new Map(), plans: new Map() };
  for (const e of events) {
    const threadId = e.stream.slice('athread-'.length);
    const plan = f.plans.get(e.stream.slice('aplan-'.length));
    switch (e.type) {
      case 'assistant.thread_started': {
        const d = e.data as D<'assistant.thread_started'>;
        f.threads.set(d.threadId, {
          threadId: d.threadId,
          ownerAgentId: d.ownerAgentId,
          title: d.title,
          startedAt: e.occurredAt,
          lastActivityAt: e.occurredAt,
          messageCount: 0,
        });
        break;
      }
      case 'assistant.message_added': {
        const d = e.data as D<'assistant.message_added'>;
        const t = f.threads.get(threadId);
        if (!t) break;
        f.messages.set(d.messageId, {
          messageId: d.messageId,
          threadId,
          ownerAgentId: t.ownerAgentId,
          seq: e.streamVersion,
          role: d.role,
          text: d.text,
          attachmentIds: d.attachmentIds,
          planId: d.planId ?? null,
          declined: d.declined ?? [],
          autoRan: d.autoRan ?? [],
          untrustedSources: d.untrustedSources ?? [],
          model: d.model ?? null,
          addedAt: e.occurredAt,
        });
        t.messageCount += 1;
        if (e.occurredAt > t.lastActivityAt) t.lastActivityAt = e.occurredAt;
        break;
      }
      case 'assistant.thread_deleted': {
        for (const [id, m] of f.messages) if (m.threadId === threadId) f.messages.delete(id);
        for (const [id, p] of f.plans) if (p.threadId === threadId) f.plans.delete(id);
        f.threads.delete(threadId);
        break;
      }
      case 'assistant.plan_proposed': {
        const d = e.data as D<'assistant.plan_proposed'>;
        f.plans.set(d.planId, {
          planId: d.planId,
          threadId: d.threadId,
          messageId: d.messageId,
          ownerAgentId: d.ownerAgentId,
          actingAgentId: d.actingAgentId,
          hash: d.hash,
          expiresAt: new Date(d.expiresAt).toISOString(),
          proposedAt: e.occurredAt,
          confirmedHash: null,
          confirmedAt: null,
          confirmedByAgentId: null,
          confirmedVia: null,
          steps: d.steps.map((s) => ({
            ...s,
            status: 'pending',
            errorCode: null,
            summary: null,
            events: [],
            finishedAt: null,
          })),
        });
        break;
      }
      case 'assistant.plan_confirmed': {
        if (!plan) break;
        const d = e.data as D<'assistant.plan_confirmed'>;
        plan.confirmedHash = d.hash;
        plan.confirmedAt = e.occurredAt;
        plan.confirmedByAgentId = d.confirmedByAgentId;
        plan.confirmedVia = d.via;
        for (const s of plan.steps)
          if (s.status === 'pending') s.status = d.steps.includes(s.step) ? 'confirmed' : 'cancelled';
        break;
      }
      case 'assistant.plan_cancelled': {
        if (!plan) break;
        const d = e.data as D<'assistant.plan_cancelled'>;
        for (const s of plan.steps)
          if (s.status === 'pending' && d.steps.includes(s.step)) s.status = 'cancelled';
        break;
      }
      case 'assistant.plan_step_finished': {
        if (!plan) break;
        const d = e.data as D<'assistant.plan_step_finished'>;
        const s = plan.steps.find((x) => x.step === d.step);
        if (!s) break;
        Object.assign(s, {
          status: d.status,
          errorCode: d.errorCode ?? null,
          summary: d.summary,
          events: d.events,
          finishedAt: e.occurredAt,
        });
        break;
      }
    }
  }
  return f;
}

export function inMemoryAssistantThreadReadModels(log: {
  all(): readonly StoredEvent[];
}): AssistantThreadReadModels {
  const folded = () => fold(log.all());
  const byActivity = (a: ThreadView, b: ThreadView) =>
    b.lastActivityAt.localeCompare(a.lastActivityAt) || b.threadId.localeCompare(a.threadId);
  return {
    async threadsOf(ownerAgentId, page) {
      const mine = [...folded().threads.values()]
        .filter((t) => t.ownerAgentId === ownerAgentId)
        .sort(byActivity);
      const from = page.before === undefined ? 0 : mine.findIndex((t) => t.threadId === page.before) + 1;
      return page.before !== undefined && from === 0 ? [] : mine.slice(from, from + page.limit);
    },
    async thread(threadId) {
      return folded().threads.get(threadId) ?? null;
    },
    async messagesOf(threadId, page) {
      return [...folded().messages.values()]
        .filter((m) => m.threadId === threadId && m.seq > (page.after ?? 0))
        .sort((a, b) => a.seq - b.seq)
        .slice(0, page.limit)
        .map(({ ownerAgentId: _, ...m }) => m);
    },
    async plan(planId) {
      return folded().plans.get(planId) ?? null;
    },
    async planByHash(hash) {
      return [...folded().plans.values()].find((p) => p.hash === hash) ?? null;
    },
    async plansOf(planIds) {
      const plans = folded().plans;
      return planIds.flatMap((id) => plans.get(id) ?? []);
    },
  };
}
