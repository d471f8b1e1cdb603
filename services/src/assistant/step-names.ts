// The names a plan's ids stand for, looked up once before its steps are put in words: agents (persons
// and personas), sites and their versions, worlds, forms, images and form submissions. Only what belongs
// to the person or the agent the plan acts for is named (a title is never shown for an id the model made
// up or took from someone else's things); any other id is shown briefly.
import type { AssistantOperationServices } from './assistant-operation.js';
import { q, shortId, type StepNames } from '../shared/step-words.js';
import { dayAndTimeWords } from '@tributary/domain';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The string values of one argument across the steps, each once. */
const valuesOf = (args: readonly Record<string, unknown>[], key: string) =>
  new Set(args.map((a) => a[key]).filter((v): v is string => typeof v === 'string' && UUID.test(v)));

export async function stepNames(
  services: AssistantOperationServices,
  o: {
    personAgentId: string;
    actingAgentId: string;
    args: readonly Record<string, unknown>[];
    /** The person's time zone, for the moments named (UTC, saying so, when absent). */
    timeZone?: string | undefined;
  },
): Promise<StepNames> {
  const own = (ownerAgentId: string) => ownerAgentId === o.actingAgentId || ownerAgentId === o.personAgentId;
  const agents = new Map<string, string>();
  const sites = new Map<string, string>();
  const versions = new Map<string, string>();
  const worlds = new Map<string, string>();
  const forms = new Map<string, string>();
  const media = new Map<string, string>();
  const submissions = new Map<string, string>();
  const ids = new Set<string>([o.actingAgentId]);
  for (const a of o.args)
    for (const v of Object.values(a)) if (typeof v === 'string' && UUID.test(v)) ids.add(v);
  for (const id of ids) {
    const agent = await services.agents.read.agent(id);
    if (agent) {
      agents.set(id, id === o.personAgentId ? 'you' : `‘${agent.name}’`);
      continue;
    }
    const site = await services.builder.read.site(id);
    if (site && own(site.ownerAgentId))
      sites.set(id, site.isDefault ? `your site ‘${site.title}’` : `the site ‘${site.title}’`);
  }
  // A version is looked up in the site its step names, else in the acting agent's sites.
  for (const a of o.args) {
    const versionId = a.versionId;
    if (typeof versionId !== 'string' || versions.has(versionId)) continue;
    const siteIds =
      typeof a.siteId === 'string'
        ? [a.siteId]
        : (await services.builder.read.sitesOf(o.actingAgentId)).map((s) => s.siteId);
    for (const siteId of siteIds) {
      const v = await services.builder.read.version(siteId, versionId);
      if (!v) continue;
      versions.set(
        versionId,
        v.publishedAt
          ? `the version published on ${dayAndTimeWords(v.publishedAt, o.timeZone)}`
          : `the version made on ${dayAndTimeWords(v.createdAt, o.timeZone)}, never published`,
      );
      break;
    }
  }
  // Worlds, forms, images and submissions by the argument that names them (no lookup for other ids).
  for (const id of valuesOf(o.args, 'worldId')) {
    const world = await services.spatial?.read.world(id);
    if (world && world.origin === null && own(world.ownerAgentId))
      worlds.set(id, `the world ${q(world.state.content?.label ?? 'without a name')}`);
  }
  const formNames = new Map<string, string>();
  const formOf = async (id: string) => {
    if (!formNames.has(id)) {
      const form = await services.builder.read.form(id);
      if (form && own(form.ownerAgentId)) formNames.set(id, `the form ${q(form.name)}`);
    }
    return formNames.get(id);
  };
  for (const id of valuesOf(o.args, 'formId')) {
    const name = await formOf(id);
    if (name) forms.set(id, name);
  }
  for (const id of valuesOf(o.args, 'mediaId')) {
    const item = await services.builder.read.mediaItem(id);
    if (item && own(item.ownerAgentId)) media.set(id, `the image ${q(item.filename)}`);
  }
  for (const id of valuesOf(o.args, 'submissionId')) {
    const s = await services.builder.read.submission(id);
    const form = s && (await formOf(s.formId));
    if (s && form)
      submissions.set(id, `what was sent through ${form} on ${dayAndTimeWords(s.receivedAt, o.timeZone)}`);
  }
  const named = (map: Map<string, string>, kind: string) => (id: unknown) =>
    typeof id === 'string' ? (map.get(id) ?? `the ${kind} ${shortId(id)}`) : `a ${kind}`;
  return {
    agent: (id) => (typeof id === 'string' ? (agents.get(id) ?? `the agent ${shortId(id)}`) : 'you'),
    site: (id) =>
      typeof id === 'string' ? (sites.get(id) ?? `the site ${shortId(id)}`) : 'your default site',
    version: named(versions, 'version'),
    world: named(worlds, 'world'),
    form: named(forms, 'form'),
    media: named(media, 'image'),
    submission: named(submissions, 'form submission'),
  };
}
