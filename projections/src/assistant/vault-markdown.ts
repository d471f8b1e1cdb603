// The vault document's Markdown (docs/assistant.md#the-vault-document): one section per finished plan
// step, made from the log's facts alone — no clock, no names that can change later, no locale — so a
// rebuild writes the very same bytes. Text that came from outside (titles, summaries) is escaped so it
// cannot add headings, links or lines of its own: the document is also the assistant's context.

/** One line of plain text: whitespace collapsed, Markdown's active characters escaped, length bounded. */
export function vaultText(text: string, max = 500): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const short = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return short.replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, (c) => `\\${c}`);
}

/** JSON in a code span: backticks inside become the JSON escape \u0060, so the span cannot close early. */
export function vaultCode(value: unknown, max = 500): string {
  const json = (JSON.stringify(value) ?? 'null').replace(/`/g, '\\u0060');
  const short = json.length > max ? `${json.slice(0, max - 1)}…` : json;
  return `\`${short}\``;
}

/** An id or a name from our own catalogue, as a code span (backticks dropped: ids never hold them). */
const id = (s: string) => `\`${s.replace(/`/g, '')}\``;

export interface VaultStepFacts {
  planId: string;
  step: number;
  tool: string;
  title: string;
  /** The step's arguments, redacted as the provenance log redacts them. */
  args: Record<string, unknown>;
  actingAgentId: string;
  ownerAgentId: string;
  hash: string;
  confirmedAt: string | null;
  confirmedByAgentId: string | null;
  confirmedVia: string | null;
  status: 'ran' | 'failed' | 'skipped';
  errorCode: string | null;
  summary: string;
  finishedAt: string;
  /** The log position of the plan_step_finished event. */
  position: number;
  events: { type: string; stream: string; streamVersion: number; position: number | null }[];
}

const RESULT = { ran: 'ran', failed: 'failed', skipped: 'skipped (not run)' } as const;

export function vaultSection(f: VaultStepFacts): string {
  const result =
    `${RESULT[f.status]}${f.errorCode ? ` (${id(f.errorCode)})` : ''}` +
    (f.summary.trim() ? ` — ${vaultText(f.summary, 1_000)}` : '');
  const confirmed =
    f.confirmedAt && f.confirmedByAgentId
      ? `${f.confirmedAt} by agent ${id(f.confirmedByAgentId)} via ${id(f.confirmedVia ?? 'http')}`
      : 'not confirmed';
  const events =
    f.events.length === 0
      ? 'none'
      : f.events
          .map(
            (e) =>
              `${id(e.type)} on ${id(e.stream)} version ${e.streamVersion}` +
              (e.position === null ? '' : ` at position ${e.position}`),
          )
          .join('; ');
  return [
    `## Plan ${id(f.planId)}, step ${f.step}: ${vaultText(f.title, 300) || id(f.tool)}`,
    '',
    `- What ran: ${id(f.tool)} with ${vaultCode(f.args)}`,
    `- For: agent ${id(f.actingAgentId)} (the plan of agent ${id(f.ownerAgentId)})`,
    `- Result: ${result}`,
    `- Confirmed: ${confirmed}; plan hash ${id(f.hash)}`,
    `- Finished: ${f.finishedAt}, recorded at log position ${f.position}`,
    `- Its events: ${events}`,
    '',
  ].join('\n');
}

/** The whole document: a fixed header, then the sections in log order. */
export function vaultDocument(agentId: string, sections: readonly string[]): string {
  const head = [
    '# Assistant vault',
    '',
    `What the assistant did as agent ${id(agentId)}: one section per plan step that finished, in log order.`,
    'Derived from the log; rebuilding the read models writes this document again byte for byte.',
    '',
    '',
  ].join('\n');
  return sections.length === 0 ? `${head}_Nothing yet._\n` : `${head}${sections.join('\n')}`;
}
