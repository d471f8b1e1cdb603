// What a confirmation did, in words (docs/assistant.md#confirmation): one line per step in the words its
// plan showed, and links to what was made or changed, read off the steps' own events — no lookups, so a
// confirmation costs no more round trips for saying what it did.

export interface DoneLink {
  label: string;
  /** A path on this instance (its pages), absolute from the origin. */
  href: string;
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
      return `Done: ${s.title}.`;
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

/** Links to what the steps that ran made or changed: personas, sites, their versions. */
function linksOf(steps: readonly StepLike[]): DoneLink[] {
  const links: DoneLink[] = [];
  const add = (l: DoneLink) => {
    if (!links.some((x) => x.href === l.href)) links.push(l);
  };
  for (const s of steps) {
    if (s.status !== 'ran') continue;
    for (const e of s.events) {
      const agentId = after(e.stream, 'agent-');
      if (agentId && e.type === 'agent.created') add({ label: 'Your personas', href: '/home#personas' });
      if (agentId && e.type === 'profile.updated') add({ label: 'Your profile', href: '/home' });
      const siteId = after(e.stream, 'site-');
      if (siteId && (e.type === 'site.published' || e.type === 'site.rolled_back')) {
        add({ label: 'The site and what it serves now', href: `/builder/sites/${siteId}#publish` });
        add({ label: 'Its versions', href: `/builder/sites/${siteId}#versions` });
      } else if (siteId && e.type === 'site.created')
        add({ label: 'The new site', href: `/builder/sites/${siteId}` });
    }
  }
  return links;
}

export function doneReply(steps: readonly StepLike[]): DoneReply {
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
  return { text: [head, ...lines.map((l) => l.text)].join('\n'), lines, links: linksOf(steps) };
}
