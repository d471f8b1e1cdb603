// The scheduled re-check of every custom-domain binding (docs/builder.md#domains): each one's
// records are looked up again and a change is recorded — a verified domain whose TXT record is gone
// becomes failed and stops being served; a pending one whose records appeared becomes verified. Run
// by infra's domain re-check runner (in-process, or on BullMQ when REDIS_URL is set).
import { decideDomainCheck, domainStream, isDomainError, type DomainBindingState } from '@tributary/domain';
import { commitEvents } from '../pipeline/execute.js';
import type { BuilderOperationServices } from './builder-operation.js';
import type { DomainBindingView } from './ports/builder-read-models.js';
import { checkDomainRecords } from './custom-domains.js';

export interface RecheckOutcome {
  checked: number;
  /** Domains whose state or reason changed (the site server refreshes their sites). */
  changed: { domain: string; siteId: string }[];
}

/** Bindings read per page of the sweep. */
const PAGE = 200;

export async function recheckDomains(
  services: BuilderOperationServices,
  options: { concurrency: number },
): Promise<RecheckOutcome> {
  const instance = await services.instance.read.get();
  if (!instance) return { checked: 0, changed: [] };
  const out: RecheckOutcome = { checked: 0, changed: [] };
  let after: string | undefined;
  for (;;) {
    const page = await services.builder.read.domainBindings({ after, limit: PAGE });
    if (page.length === 0) return out;
    after = page[page.length - 1]!.domain;
    let next = 0;
    const worker = async () => {
      while (next < page.length) {
        const binding = page[next++]!;
        if (await recheckOne(services, binding, instance.primaryAgentId))
          out.changed.push({ domain: binding.domain, siteId: binding.siteId });
        out.checked++;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    if (page.length < PAGE) return out;
  }
}

/** One binding: looked up, judged, and the change (if any) recorded as the instance. */
async function recheckOne(
  services: BuilderOperationServices,
  b: DomainBindingView,
  instanceAgentId: string,
): Promise<boolean> {
  const outcome = await checkDomainRecords(services.builder.domains, b.domain, b.challengeToken);
  const stream = domainStream(b.domain);
  try {
    const { events } = await commitEvents(
      services,
      [stream],
      (states) =>
        decideDomainCheck(
          states.get(stream) as DomainBindingState,
          outcome,
          services.clock.now(),
          b.challengeToken,
        ),
      instanceAgentId,
    );
    return events.length > 0;
  } catch (e) {
    // The binding moved meanwhile (its owner checked or unbound it): the next sweep sees the new state.
    if (isDomainError(e) && e.code === 'log.stream_conflict') return false;
    throw e;
  }
}
