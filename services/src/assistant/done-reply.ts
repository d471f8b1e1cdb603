// What a confirmation did, in words (docs/assistant.md#confirmation): one line per step in the words its
// plan showed, and links to what was made or changed, read off the steps' own events. The one lookup is
// where a published site is live (`liveSitesOf`), made only when a step published or rolled one back.
import { doneWords } from '../shared/step-words.js';

export interface DoneLink {
  label: string;
  /** A path on this instance (its pages), absolute from the origin; or a site's public URL (`live`). */
  href: string;
  /** The link opens the site as visitors see it. */
  live?: true;
}

/** A site a step published or rolled back: its title, and its public URL (null: it has no address yet). */
export interface LiveSite {
  title: string;
  url: string | null;
}

export interface DoneReply {
  /** Tributary's statement of what became of each step (never the model's words). */
  text: string;
  lines: { step: number; status: string; text: string }[];
  links: DoneLink[];
}

interface StepLike {
  step: number;
  title: string;
  status: string;
  errorCode: string | null;
  events: readonly { type: string; stream: string }[];
}

const after = (stream: string, prefix: string) =>
  stream.startsWith(prefix) ? stream.slice(prefix.length) : null;

function lineOf(s: StepLike): string {
  switch (s.status) {
    case 'ran':
      return `${doneWords(s.title)}.`;
    case 'failed':
      return `Did not work: ${s.title} (${s.errorCode ?? 'failed'}). Nothing of it was written.`;
    case 'skipped':
      return `Not run: ${s.title}, because an earlier step did not work.`;
    case 'cancelled':
      return `Cancelled: ${s.title}.`;
    case 'confirmed':
      return `Confirmed, not run yet: ${s.title}.`;
    default:
      return `Waiting for you: ${s.title}.`;
  }
}

/** The sites whose served version a step that ran changed: published or rolled back. */
export function sitesServedAnew(steps: readonly StepLike[]): string[] {
  const ids = new Set<string>();
  for (const s of steps)
    if (s.status === 'ran')
      for (const e of s.events) {
        const siteId = after(e.stream, 'site-');
        if (siteId && (e.type === 'site.published' || e.type === 'site.rolled_back')) ids.add(siteId);
      }
  return [...ids];
}

/**
 * Links to what the steps that ran made or changed: personas, sites, their versions. A site published or
 * rolled back links first to where it is live, or — without an address — to giving it one.
 */
function linksOf(steps: readonly StepLike[], live: ReadonlyMap<string, LiveSite>): DoneLink[] {
  const links: DoneLink[] = [];
  const add = (l: DoneLink) => {
    if (!links.some((x) => x.href === l.href)) links.push(l);
  };
  for (const s of steps) {
    if (s.status !== 'ran') continue;
    for (const e of s.events) {
      const agentId = after(e.stream, 'agent-');
      if (agentId && e.type === 'agent.created') add({ label: 'Your identities', href: '/home#personas' });
      if (agentId && e.type === 'profile.updated') add({ label: 'Your profile', href: '/home' });
      const siteId = after(e.stream, 'site-');
      if (siteId && (e.type === 'site.published' || e.type === 'site.rolled_back')) {
        const site = live.get(siteId);
        const name = site ? `‘${site.title}’` : 'the site';
        if (site?.url) add({ label: `Open ${name} as visitors see it`, href: site.url, live: true });
        else if (site)
          add({
            label: `Give ${name} an address, so people can visit it`,
            href: `/builder/sites/${siteId}/address`,
          });
        add({ label: 'Its versions and publishing', href: `/builder/sites/${siteId}/publish` });
      } else if (siteId && e.type === 'site.created')
        add({ label: 'The new site', href: `/builder/sites/${siteId}` });
    }
  }
  return links;
}

export function doneReply(
  steps: readonly StepLike[],
  live: ReadonlyMap<string, LiveSite> = new Map(),
): DoneReply {
  const lines = steps.map((s) => ({ step: s.step, status: s.status, text: lineOf(s) }));
  const ran = steps.filter((s) => s.status === 'ran').length;
  const failed = steps.some((s) => s.status === 'failed');
  const open = steps.some((s) => s.status === 'pending' || s.status === 'confirmed');
  const head = failed
    ? 'Not everything worked.'
    : open
      ? 'Not finished yet.'
      : ran === 0
        ? 'Nothing ran.'
        : ran === steps.length
          ? ran === 1
            ? 'The step ran.'
            : `All ${ran} steps ran.`
          : `${ran} of ${steps.length} steps ran.`;
  return { text: [head, ...lines.map((l) => l.text)].join('\n'), lines, links: linksOf(steps, live) };
}
