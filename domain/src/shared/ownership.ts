// Who controls which agent. Every `targetAgentId` is checked against this; an agent the principal
// does not control is reported as not found, never as someone else's.
interface AgentRecord {
  agentId: string;
  kind: string;
  ownerAgentId: string | null;
  placeholder?: boolean;
}

interface ControlContext {
  /** The principal's own agent (a session's or token owner's person agent). */
  selfAgentId: string;
  /** Whether the principal's account controls the instance (so it controls the primary agent too). */
  isInstanceController: boolean;
  primaryAgentId: string;
}

export function controls(ctx: ControlContext, target: AgentRecord): boolean {
  if (target.placeholder) return false;
  if (target.agentId === ctx.selfAgentId) return true;
  if (target.ownerAgentId === ctx.selfAgentId) return true;
  if (ctx.isInstanceController) {
    if (target.agentId === ctx.primaryAgentId) return true;
    if (target.ownerAgentId === ctx.primaryAgentId) return true;
  }
  return false;
}
