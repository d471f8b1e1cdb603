// The names a plan's ids stand for, looked up once before its steps are put in words: agents (persons
// and personas), sites and their versions. An id that names nothing known is shown briefly.
import type { Services } from '../pipeline/services.js';
import { shortId, type StepNames } from '../shared/step-words.js';
import { dayAndTime } from './builtin-planner.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function stepNames(
  services: Services,
  o: { personAgentId: string; actingAgentId: string; args: readonly Record<string, unknown>[] },
): Promise<StepNames> {
  const agents = new Map<string, string>();
  const sites = new Map<string, string>();
  const versions = new Map<string, string>();
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
    // Only the person's own sites are named: a title is not shown for an id the model made up.
    const own = site && (site.ownerAgentId === o.actingAgentId || site.ownerAgentId === o.personAgentId);
    if (site && own) sites.set(id, site.isDefault ? `your site ‘${site.title}’` : `the site ‘${site.title}’`);
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
          ? `the version published on ${dayAndTime(v.publishedAt)} (UTC)`
          : `the version made on ${dayAndTime(v.createdAt)} (UTC), never published`,
      );
      break;
    }
  }
  return {
    agent: (id) => (typeof id === 'string' ? (agents.get(id) ?? `the agent ${shortId(id)}`) : 'you'),
    site: (id) =>
      typeof id === 'string' ? (sites.get(id) ?? `the site ${shortId(id)}`) : 'your default site',
    version: (id) =>
      typeof id === 'string' ? (versions.get(id) ?? `the version ${shortId(id)}`) : 'a version',
  };
}
