// The tools a chat turn offers the model: the catalogue's tools this principal may call on the
// assistant surface (the same check `execute` applies, so a step the model proposes is one the person
// could run themselves), never the assistant's own commands (it cannot confirm, cancel or re-configure
// itself). Their arguments as JSON Schema from the zod input, as the MCP surface shows them, without
// `targetAgentId`: whom a step acts for is the server's choice, never the model's.
import type { DeclinedCall } from '@tributary/domain';
import { jsonSchemaOf } from '../pipeline/json-schema-of.js';
import type { Operation } from '../pipeline/operation.js';
import type { Principal } from '../pipeline/principal.js';
import { catalogueTools, operationNamed } from '../pipeline/operation-lookup.js';
import { accessDenial, type AccessContext } from '../pipeline/tool-access.js';
import type { ModelToolSpec } from './ports/language-model.js';

export interface OfferedTool {
  op: Operation<unknown, unknown>;
  spec: ModelToolSpec;
  /** The op's input takes `targetAgentId` (the server fills it with the acting agent). */
  takesTarget: boolean;
}

export interface ToolOffer {
  offered: ReadonlyMap<string, OfferedTool>;
  specs: ModelToolSpec[];
  /** Why a tool the model named is not offered: unknown, not enabled, or scopes missing. */
  refusal(name: string): Pick<DeclinedCall, 'code' | 'reason'>;
}

/** The assistant's own commands are never the model's to call. */
const neverOffered = (op: Operation<unknown, unknown>) =>
  op.name.startsWith('svc.assistant.') && op.kind === 'command';

const schemas = new Map<string, { parameters: Record<string, unknown>; takesTarget: boolean }>();

function parametersOf(op: Operation<unknown, unknown>) {
  let found = schemas.get(op.name);
  if (!found) {
    const { $schema: _dialect, ...schema } = jsonSchemaOf(op.input);
    const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
    const takesTarget = 'targetAgentId' in properties && op.actsForAgent !== false;
    delete properties.targetAgentId;
    const required = Array.isArray(schema.required)
      ? (schema.required as string[]).filter((r) => r !== 'targetAgentId')
      : undefined;
    found = {
      parameters: {
        ...schema,
        type: 'object',
        properties,
        ...(required && { required }),
      },
      takesTarget,
    };
    schemas.set(op.name, found);
  }
  return found;
}

function describe(op: Operation<unknown, unknown>): string {
  const how =
    op.kind === 'command'
      ? 'It changes data: it is proposed to the person and runs only once they confirm it.'
      : 'It only reads.';
  return `${op.title}. ${op.description} ${how}`.slice(0, 1_000);
}

export function offeredTools(principal: Principal, access: AccessContext): ToolOffer {
  const offered = new Map<string, OfferedTool>();
  for (const op of catalogueTools()) {
    if (neverOffered(op) || accessDenial(op, principal, 'assistant', access) !== null) continue;
    const { parameters, takesTarget } = parametersOf(op);
    offered.set(op.name, { op, takesTarget, spec: { name: op.name, description: describe(op), parameters } });
  }
  return {
    offered,
    specs: [...offered.values()].map((t) => t.spec),
    refusal(name) {
      const op = operationNamed(name);
      if (!op || op.enabledFor.length === 0 || op.public)
        return { code: 'assistant.unknown_tool', reason: 'no such tool' };
      if (neverOffered(op))
        return { code: 'assistant.unknown_tool', reason: 'the assistant does not act on itself' };
      const denial = accessDenial(op, principal, 'assistant', access);
      if (denial) return { code: denial.code, reason: denial.message.slice(0, 500) };
      return { code: 'assistant.unknown_tool', reason: 'not offered in this turn' };
    },
  };
}
