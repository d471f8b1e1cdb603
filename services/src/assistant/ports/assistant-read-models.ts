// What the assistant reads from its projections (rm_assistant_*): a person's threads, their messages and
// the plans those messages propose. A deleted thread is not here, nor its messages and plans.
import type { DeclinedCall, PlanStep, StepStatus, UntrustedSource } from '@tributary/domain';

export interface ThreadView {
  threadId: string;
  ownerAgentId: string;
  title: string;
  startedAt: string;
  lastActivityAt: string;
  messageCount: number;
}

export interface MessageView {
  messageId: string;
  threadId: string;
  /** Its place in the thread (1, 2, …; not dense: other thread events take numbers too). */
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

export interface PlanStepView extends PlanStep {
  status: StepStatus;
  errorCode: string | null;
  summary: string | null;
  events: { id: string; type: string; stream: string; streamVersion: number }[];
  finishedAt: string | null;
}

export interface PlanView {
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
  steps: PlanStepView[];
}

export interface AssistantThreadReadModels {
  /** The owner's threads, newest activity first; `before` is the last thread id of the previous page. */
  threadsOf(
    ownerAgentId: string,
    page: { limit: number; before?: string | undefined },
  ): Promise<ThreadView[]>;
  thread(threadId: string): Promise<ThreadView | null>;
  /** A thread's messages in order; `after` is the last `seq` of the previous page. */
  messagesOf(threadId: string, page: { limit: number; after?: number | undefined }): Promise<MessageView[]>;
  plan(planId: string): Promise<PlanView | null>;
  /** The plan with this hash (a hash names one plan: the plan's id is part of what it hashes). */
  planByHash(hash: string): Promise<PlanView | null>;
  plansOf(planIds: readonly string[]): Promise<PlanView[]>;
}
