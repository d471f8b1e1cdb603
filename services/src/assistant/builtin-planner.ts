// The built-in planner (docs/assistant.md#the-built-in-planner): the LanguageModel used when no model is
// configured. It is not a language model: it recognises a few plain requests for the instance's own
// tools in the person's LAST message, proposes the tool calls they need, and says plainly what it cannot
// do. Deterministic: the same messages, tools and clock give the same answer.
//
// Safety: the request is read from the last user message only. Tool messages are never read as
// instructions: the planner only answers tool calls it made itself (matched by id) and reads from their
// results only the structured fields it asked for (`personas`, `versions`, `entries`, …); a result
// saying "CALL …", "publish my site" or anything else changes nothing. Names it reads back (an identity's
// name) are quoted as data in its reply, never acted on. It speaks of "identities", as the pages do; the
// tools keep their names (svc.agent.*_persona), and a request may say either word.
import { dayAndTimeWords, isTimeZone } from '@tributary/domain';
import type {
  LanguageModel,
  ModelToolCall,
  ModelToolSpec,
  ModelTurn,
  ModelTurnRequest,
} from './ports/language-model.js';

/** The requests it understands, in plain words (its help answer and docs/assistant.md list them). */
export const BUILTIN_PLANNER_VOCABULARY = [
  'list my identities',
  'create an identity called <name>',
  'list my sites',
  'publish my site',
  'roll back my site to the previous version',
  'what did my agents do today',
  'help',
] as const;

export const BUILTIN_PLANNER_MODEL = 'builtin-planner';

const TOOLS = {
  listPersonas: 'svc.agent.list_personas',
  createPersona: 'svc.agent.create_persona',
  listSites: 'svc.builder.list_sites',
  publish: 'svc.builder.publish',
  listVersions: 'svc.builder.list_versions',
  rollback: 'svc.builder.rollback',
  auditRecent: 'svc.audit.recent',
  readMine: 'svc.log.read_mine',
} as const;

/** An identity's name, as the catalogue takes it (services/src/shared/schemas.ts displayName). */
const NAME_MAX = 100;
/** Provenance entries read to tell what happened today. */
const ACTIVITY_LIMIT = 100;

type Intent =
  | { kind: 'help' }
  | { kind: 'list_personas' }
  | { kind: 'create_persona'; name: string | undefined }
  | { kind: 'list_sites' }
  | { kind: 'publish' }
  | { kind: 'rollback' }
  | { kind: 'activity' }
  | { kind: 'delete_persona' }
  | { kind: 'unknown' };

export interface BuiltinPlannerOptions {
  /** The clock "today" is read from (the UTC date). */
  now?: () => Date;
}

export function createBuiltinPlanner(options: BuiltinPlannerOptions = {}): LanguageModel {
  const now = options.now ?? (() => new Date());
  return {
    kind: 'builtin',
    defaultModel: BUILTIN_PLANNER_MODEL,
    acceptsImages: false,
    async complete(request: ModelTurnRequest): Promise<ModelTurn> {
      const turn = plan(request, now());
      if (request.onTextDelta && turn.text) request.onTextDelta(turn.text);
      return turn;
    },
    async probe() {
      return { reachable: true, detail: 'the built-in planner (no model configured)' };
    },
  };
}

/** Reads the person's request from the last user message. */
export function recogniseRequest(text: string): Intent {
  const t = text.trim().replace(/\s+/g, ' ');
  const l = t.toLowerCase();
  if (/^(help|\?|what can you do\??|what do you understand\??)$/.test(l)) return { kind: 'help' };
  const create =
    /^(?:please\s+)?(?:create|make|add|set up)\s+(?:me\s+)?(?:a\s+|an\s+)?(?:new\s+)?(?:persona|identity)\b\s*(?:(?:called|named)\s+|with\s+(?:the\s+)?name\s+|:\s*)?(.*)$/i.exec(
      t,
    );
  if (create) return { kind: 'create_persona', name: personaName(create[1] ?? '') };
  if (/\b(delete|remove)\b.*\b(personas?|identity|identities)\b/.test(l)) return { kind: 'delete_persona' };
  // "What did my identities do today?" asks what they did, not who they are.
  const askedWhatTheyDid =
    /\bwhat (did|have) (my )?(agents?|personas?|identity|identities|i|you)\b.*\b(do|done)\b/;
  if (
    !askedWhatTheyDid.test(l) &&
    /\b(list|show|which|what)\b.*\b(personas|identities)\b|^(my )?(personas|identities)\??$/.test(l)
  )
    return { kind: 'list_personas' };
  if (
    /\b(roll ?back|revert|undo|restore)\b.*\b(site|version|publish)/.test(l) ||
    /\bprevious version\b/.test(l)
  )
    return { kind: 'rollback' };
  if (/\bunpublish/.test(l)) return { kind: 'unknown' };
  if (/\bpublish\b.*\bsite\b|^publish\b/.test(l)) return { kind: 'publish' };
  if (/\b(list|show|which|what)\b.*\bsites\b|^(my )?sites\??$/.test(l)) return { kind: 'list_sites' };
  if (askedWhatTheyDid.test(l) || /\b(activity|happened)\b.*\btoday\b|\btoday'?s activity\b/.test(l))
    return { kind: 'activity' };
  return { kind: 'unknown' };
}

/** The name after "called …": quotes and a closing full stop dropped; undefined when there is none. */
function personaName(raw: string): string | undefined {
  let name = raw
    .trim()
    .replace(/[.!]+$/, '')
    .trim();
  const quoted = /^["“'‘«](.*)["”'’»]$/.exec(name);
  if (quoted) name = quoted[1]!.trim();
  if (name === '' || name.length > NAME_MAX) return undefined;
  return name;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** One answer: deterministic in the messages, the offered tools and `today`. */
function plan(request: ModelTurnRequest, today: Date): ModelTurn {
  const { messages, tools } = request;
  const lastUser = findLastIndex(messages, (m) => m.role === 'user');
  const text = lastUser >= 0 ? (messages[lastUser] as { content: string }).content : '';
  const intent = recogniseRequest(text);
  // What happened in this turn: the calls the planner made since the person spoke, and their results.
  const turn = messages.slice(lastUser + 1);
  const made: ModelToolCall[] = turn.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
  const results = new Map<string, unknown>();
  for (const m of turn)
    if (m.role === 'tool') {
      const call = made.find((c) => c.id === m.toolCallId);
      if (call && !results.has(call.name)) results.set(call.name, readResult(m.content));
    }
  const offered = new Set(tools.map((t: ModelToolSpec) => t.name));
  // A tool in words: its title, which starts the description it is offered with ("Create an identity. …").
  const titles = new Map(tools.map((t: ModelToolSpec) => [t.name, t.description.split('. ')[0] ?? t.name]));
  const titleOf = (tool: string) => titles.get(tool) ?? tool;
  const calledAlready = (name: string) => made.some((c) => c.name === name);
  const say = (answer: string): ModelTurn => ({
    text: answer,
    toolCalls: [],
    finishReason: 'stop',
    model: BUILTIN_PLANNER_MODEL,
  });
  // Once its write is proposed, the proposal's own words stand: a second sentence would repeat them.
  const said = (): ModelTurn => say('');
  const call = (answer: string, name: string, args: Record<string, unknown>): ModelTurn => ({
    text: answer,
    toolCalls: [{ id: `builtin_${made.length + 1}`, name, arguments: JSON.stringify(args) }],
    finishReason: 'tool_calls',
    model: BUILTIN_PLANNER_MODEL,
  });
  const notOffered = (name: string) =>
    say(
      `I can't do that for you here: the tool ${name} is not available to you (not enabled, or outside your scopes).`,
    );

  switch (intent.kind) {
    case 'help':
      return say(helpText());
    case 'unknown':
      return say(
        `${lastUser < 0 ? 'I have no request to answer.' : "I don't understand that request."} ${helpText()}`,
      );
    case 'delete_persona':
      return say(
        "I can't delete an identity: deleting one asks for your password again, so do it yourself on your home page.",
      );

    case 'list_personas': {
      if (!offered.has(TOOLS.listPersonas)) return notOffered(TOOLS.listPersonas);
      if (!results.has(TOOLS.listPersonas)) {
        if (calledAlready(TOOLS.listPersonas))
          return say('I asked for your identities; the list is waiting to be read.');
        return call('Let me look up your identities.', TOOLS.listPersonas, {});
      }
      const personas = fieldOf(results.get(TOOLS.listPersonas), 'personas');
      if (!Array.isArray(personas))
        return say(couldNotRead(results.get(TOOLS.listPersonas), 'your identities'));
      if (personas.length === 0)
        return say('You have no other identities yet. Say "create an identity called <name>" to make one.');
      const names = personas.map(
        (p: Json) => `“${String(p?.name ?? '?')}”${p?.handle ? ` (@${String(p.handle)})` : ''}`,
      );
      return say(
        `You have ${personas.length} other identit${personas.length === 1 ? 'y' : 'ies'}: ${names.join(', ')}.`,
      );
    }

    case 'create_persona': {
      if (!intent.name)
        return say(
          `What should the identity be called? Say "create an identity called <name>" (at most ${NAME_MAX} characters).`,
        );
      if (!offered.has(TOOLS.createPersona)) return notOffered(TOOLS.createPersona);
      if (calledAlready(TOOLS.createPersona)) return said();
      return call(
        `I'll create an identity called “${intent.name}”. Confirm the plan to run it.`,
        TOOLS.createPersona,
        { name: intent.name },
      );
    }

    case 'list_sites': {
      if (!offered.has(TOOLS.listSites)) return notOffered(TOOLS.listSites);
      if (!results.has(TOOLS.listSites)) {
        if (calledAlready(TOOLS.listSites))
          return say('I asked for your sites; the list is waiting to be read.');
        return call('Let me look up your sites.', TOOLS.listSites, {});
      }
      const sites = fieldOf(results.get(TOOLS.listSites), 'sites');
      if (!Array.isArray(sites)) return say(couldNotRead(results.get(TOOLS.listSites), 'your sites'));
      if (sites.length === 0) return say('You have no sites yet.');
      const lines = sites.map(
        (s: Json) =>
          `“${String(s?.title ?? '?')}”${s?.isDefault ? ' (your default site)' : ''}: ${s?.publishedVersionId ? `published${typeof s.publishedAt === 'string' ? ` on ${dayAndTimeWords(s.publishedAt, request.timeZone)}` : ''}` : 'not published yet'}`,
      );
      return say(`You have ${sites.length} site${sites.length === 1 ? '' : 's'}: ${lines.join('; ')}.`);
    }

    case 'publish': {
      if (!offered.has(TOOLS.publish)) return notOffered(TOOLS.publish);
      if (calledAlready(TOOLS.publish)) return said();
      return call(
        "I'll publish your default site's current draft. Confirm the plan to run it.",
        TOOLS.publish,
        {},
      );
    }

    case 'rollback': {
      if (!offered.has(TOOLS.listVersions)) return notOffered(TOOLS.listVersions);
      if (!offered.has(TOOLS.rollback)) return notOffered(TOOLS.rollback);
      if (calledAlready(TOOLS.rollback)) return said();
      if (!results.has(TOOLS.listVersions)) {
        if (calledAlready(TOOLS.listVersions))
          return say("I asked for your site's versions; they are waiting to be read.");
        return call("First I'll look at your default site's versions.", TOOLS.listVersions, {});
      }
      const read = results.get(TOOLS.listVersions);
      const siteId = fieldOf(read, 'siteId');
      const versions = fieldOf(read, 'versions');
      const served = fieldOf(read, 'servedVersionId');
      if (typeof siteId !== 'string' || !Array.isArray(versions))
        return say(couldNotRead(read, "your site's versions"));
      if (typeof served !== 'string')
        return say('Your site has never been published, so there is nothing to roll back.');
      const previous = previousPublished(versions, served);
      if (!previous)
        return say(
          'Your site has no published version older than the one it serves, so there is nothing to roll back to.',
        );
      return call(
        `I'll put your site back to the version published on ${dayAndTimeWords(previous.publishedAt, request.timeZone)}, the one live before the current. Confirm the plan to run it.`,
        TOOLS.rollback,
        { siteId, versionId: previous.versionId },
      );
    }

    case 'activity': {
      const tool = offered.has(TOOLS.auditRecent) ? TOOLS.auditRecent : null;
      if (!tool)
        return say(
          `I can't tell what your agents did: the tool ${TOOLS.auditRecent} is not available to you (not enabled, or outside your scopes).`,
        );
      if (!results.has(tool)) {
        if (calledAlready(tool)) return say('I asked for your recent activity; it is waiting to be read.');
        return call('Let me read what was done on your behalf recently.', tool, { limit: ACTIVITY_LIMIT });
      }
      const entries = fieldOf(results.get(tool), 'entries');
      if (!Array.isArray(entries)) return say(couldNotRead(results.get(tool), 'your recent activity'));
      return say(activitySummary(entries, today, titleOf, request.timeZone));
    }
  }
}

function helpText(): string {
  return (
    "I'm the built-in planner, not a language model: I understand only these requests: " +
    BUILTIN_PLANNER_VOCABULARY.map((v) => `“${v}”`).join(', ') +
    '. Anything that changes something runs only after you confirm the plan. ' +
    // A person reads this: the setting's name is for the operator's view, not the conversation.
    'For anything else, the operator can connect a language model (see docs/assistant.md).'
  );
}

/** A tool message that is not JSON: the turn loop's own words ("proposed as step 1 …", "the tool failed: …"). */
class PlainText {
  constructor(readonly text: string) {}
}

/**
 * A tool result's content: the tool's output as JSON, possibly wrapped in an object (the turn loop's
 * `{type: 'tool_result', …, data}`) or in text; a message with no JSON in it is kept as PlainText.
 */
function readResult(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    const start = content.indexOf('{');
    const end = content.lastIndexOf('}');
    if (start < 0 || end <= start) return new PlainText(content);
    try {
      return JSON.parse(content.slice(start, end + 1));
    } catch {
      return new PlainText(content);
    }
  }
}

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The field `key` of the result, or of an object it is wrapped in (`{result: …}`), breadth first. */
function fieldOf(value: unknown, key: string): unknown {
  let level: unknown[] = [value];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    for (const v of level) if (isObject(v) && key in v) return v[key];
    level = level.flatMap((v) => (isObject(v) ? Object.values(v).filter(isObject) : []));
  }
  return undefined;
}

const ERROR_CODE = /^[a-z_]+\.[a-z_.]+$/;

/** Why a result has not the fields asked for, in plain words (only a code is ever taken from it). */
function couldNotRead(result: unknown, what: string): string {
  if (result instanceof PlainText) {
    const code = /\b(?:failed|error)\b\W+([a-z_]+\.[a-z_.]*[a-z_])/i.exec(result.text)?.[1];
    if (code) return `I could not read ${what}: the tool answered ${code}.`;
    // The read became a plan step instead of running now.
    return `To show you ${what} I need to read it first: confirm the plan, and its answer shows what the read found.`;
  }
  if (fieldOf(result, 'cutShort') === true)
    return `I could not read ${what}: the answer was too long for me.`;
  const code = fieldOf(result, 'code');
  return typeof code === 'string' && ERROR_CODE.test(code)
    ? `I could not read ${what}: the tool answered ${code}.`
    : `I could not read ${what}: the tool's answer was not what I expected.`;
}

/**
 * The published version made just before the one served (previews also create versions; only one that
 * was live is a version to go back to). By creation time; ties by id, for determinism.
 */
function previousPublished(
  versions: Json[],
  served: string,
): { versionId: string; createdAt: string; publishedAt: string } | null {
  const known = versions
    .filter((v) => isObject(v) && typeof v.versionId === 'string' && typeof v.createdAt === 'string')
    .map((v) => ({
      versionId: v.versionId as string,
      createdAt: v.createdAt as string,
      publishedAt: typeof v.publishedAt === 'string' ? v.publishedAt : null,
    }))
    .sort((a, b) =>
      a.createdAt === b.createdAt
        ? a.versionId.localeCompare(b.versionId)
        : a.createdAt < b.createdAt
          ? -1
          : 1,
    );
  const at = known.findIndex((v) => v.versionId === served);
  for (let i = at - 1; i >= 0; i--) {
    const v = known[i]!;
    if (v.publishedAt) return { ...v, publishedAt: v.publishedAt };
  }
  return null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "5 Dec at 14:02" (UTC): how a person names a moment. */
export function dayAndTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} at ${hh}:${mm}`;
}

/** The calendar day of `iso` in `zone` (YYYY-MM-DD), or in UTC without a zone Intl knows. */
function dayIn(iso: string, zone: string | undefined): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  if (!isTimeZone(zone)) return at.toISOString().slice(0, 10);
  // en-CA writes a date as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** Today's calls by tool: "today" is the person's own day when their zone is known, else the UTC day. */
function activitySummary(
  entries: Json[],
  today: Date,
  titleOf: (tool: string) => string,
  zone?: string,
): string {
  const day = dayIn(today.toISOString(), zone);
  const todays = entries.filter((e) => isObject(e) && typeof e.at === 'string' && dayIn(e.at, zone) === day);
  const date = isTimeZone(zone)
    ? dayAndTimeWords(today.toISOString(), zone).split(' at ')[0]
    : `${dayAndTime(`${day}T00:00:00Z`).split(' at ')[0]}, UTC`;
  if (todays.length === 0) return `Nothing was done on your behalf today (${date}) that I can see.`;
  const byTool = new Map<string, { ok: number; failed: number }>();
  for (const e of todays) {
    const tool = typeof e.tool === 'string' ? e.tool : 'unknown';
    const count = byTool.get(tool) ?? { ok: 0, failed: 0 };
    if (e.outcome === 'ok') count.ok++;
    else count.failed++;
    byTool.set(tool, count);
  }
  const lines = [...byTool.entries()]
    .map(([tool, c]) => ({ words: titleOf(tool), c }))
    .sort((a, b) => a.words.localeCompare(b.words))
    .map(
      ({ words, c }) =>
        `- ${words}: ${c.ok + c.failed} time${c.ok + c.failed === 1 ? '' : 's'}${c.failed ? ` (${c.failed} did not succeed)` : ''}`,
    );
  const more = entries.length >= ACTIVITY_LIMIT ? ` I read only the latest ${ACTIVITY_LIMIT}.` : '';
  return `Today (${date}) ${todays.length} thing${todays.length === 1 ? ' was' : 's were'} done on your behalf:${more}\n${lines.join('\n')}`;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
