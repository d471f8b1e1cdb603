// The forms' read models derived from the in-memory log, by the rules of
// projections/src/builder/forms-projection.ts and forms-read-models.ts (rm_builder_forms,
// rm_builder_submissions, rm_builder_form_refs), joined with the sites' read models as the SQL is.
// Test layer only.
import { draftReferences, type BuilderEventData as EventData, type DraftDocument } from '@tributary/domain';
import type {
  BuilderReadModels,
  FormReadModels,
  FormView,
  StoredEvent,
  SubmissionView,
} from '@tributary/services';

interface FormsFolded {
  forms: Map<string, Omit<FormView, 'submissionCount' | 'unreadCount' | 'unreadBySite'>>;
  submissions: Map<string, SubmissionView>;
  /** `${siteId} ${draftRevision}` → the form ids that draft revision holds. */
  refs: Map<string, Set<string>>;
}

type Sites = Pick<BuilderReadModels, 'site' | 'sitesOf' | 'version'>;

export function inMemoryFormReadModels(log: { all(): readonly StoredEvent[] }, sites: Sites): FormReadModels {
  const folded = () => foldForms(log.all());
  const view = (
    f: FormsFolded,
    form: Omit<FormView, 'submissionCount' | 'unreadCount' | 'unreadBySite'>,
  ): FormView => {
    const unread = [...f.submissions.values()].filter(
      (s) => s.formId === form.formId && (form.seenThrough === null || s.receivedAt > form.seenThrough),
    );
    const bySite = new Map<string, number>();
    for (const s of unread) bySite.set(s.siteId, (bySite.get(s.siteId) ?? 0) + 1);
    return {
      ...structuredClone(form),
      submissionCount: [...f.submissions.values()].filter((s) => s.formId === form.formId).length,
      unreadCount: unread.length,
      unreadBySite: [...bySite]
        .sort(([a], [b]) => compare(a, b))
        .map(([siteId, count]) => ({ siteId, count })),
    };
  };
  /** The forms a site's published version holds, when it is published. */
  const publishedForms = async (f: FormsFolded, siteId: string) => {
    const site = await sites.site(siteId);
    if (!site?.publishedVersionId) return null;
    const version = await sites.version(siteId, site.publishedVersionId);
    const ids = version
      ? (f.refs.get(`${siteId} ${version.draftRevision}`) ?? new Set<string>())
      : new Set<string>();
    return { site, ids };
  };
  return {
    async formsOf(ownerAgentId) {
      const f = folded();
      return [...f.forms.values()]
        .filter((x) => x.ownerAgentId === ownerAgentId)
        .sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.formId, b.formId))
        .map((x) => view(f, x));
    },
    async form(formId) {
      const f = folded();
      const form = f.forms.get(formId);
      return form ? view(f, form) : null;
    },
    async submissionsOf(formId, page) {
      const after = page.after;
      return [...folded().submissions.values()]
        .filter((s) => s.formId === formId)
        .sort((a, b) => compare(b.receivedAt, a.receivedAt) || compare(b.submissionId, a.submissionId))
        .filter(
          (s) =>
            !after ||
            s.receivedAt < after.receivedAt ||
            (s.receivedAt === after.receivedAt && s.submissionId < after.submissionId),
        )
        .slice(0, page.limit)
        .map((s) => structuredClone(s));
    },
    async submission(submissionId) {
      const s = folded().submissions.get(submissionId);
      return s ? structuredClone(s) : null;
    },
    async sitesDraftingForm(ownerAgentId, formId) {
      const f = folded();
      return (await sites.sitesOf(ownerAgentId))
        .filter((s) => f.refs.get(`${s.siteId} ${s.draftRevision}`)?.has(formId))
        .map((s) => s.siteId);
    },
    async sitesPublishingForm(formId) {
      const f = folded();
      const siteIds = new Set([...f.refs.keys()].map((k) => k.split(' ')[0]!));
      const out: string[] = [];
      for (const siteId of siteIds) if ((await publishedForms(f, siteId))?.ids.has(formId)) out.push(siteId);
      return out.sort();
    },
    async siteFormStatus(siteId, formId) {
      const f = folded();
      const published = await publishedForms(f, siteId);
      if (!published) return { state: 'absent' };
      if (published.site.suspendedReason !== null)
        return { state: 'suspended', reason: published.site.suspendedReason };
      const form = f.forms.get(formId);
      return published.ids.has(formId) && form?.ownerAgentId === published.site.ownerAgentId
        ? { state: 'accepting' }
        : { state: 'absent' };
    },
  };
}

function foldForms(events: readonly StoredEvent[]): FormsFolded {
  const f: FormsFolded = { forms: new Map(), submissions: new Map(), refs: new Map() };
  for (const e of events) {
    switch (e.type) {
      case 'form.created': {
        const d = e.data as EventData<'form.created'>;
        f.forms.set(d.formId, {
          formId: d.formId,
          ownerAgentId: d.ownerAgentId,
          name: d.name,
          fields: d.fields,
          successMessage: d.successMessage,
          seenThrough: null,
          createdAt: e.occurredAt,
          updatedAt: e.occurredAt,
        });
        break;
      }
      case 'form.updated': {
        const d = e.data as EventData<'form.updated'>;
        const form = f.forms.get(d.formId);
        if (!form) break;
        if (d.name !== undefined) form.name = d.name;
        if (d.fields !== undefined) form.fields = d.fields;
        if (d.successMessage !== undefined) form.successMessage = d.successMessage;
        form.updatedAt = e.occurredAt;
        break;
      }
      case 'form.deleted': {
        const d = e.data as EventData<'form.deleted'>;
        f.forms.delete(d.formId);
        for (const [id, s] of f.submissions) if (s.formId === d.formId) f.submissions.delete(id);
        break;
      }
      case 'form.submission_received': {
        const d = e.data as EventData<'form.submission_received'>;
        if (!f.forms.has(d.formId)) break;
        f.submissions.set(d.submissionId, {
          submissionId: d.submissionId,
          formId: d.formId,
          siteId: d.siteId,
          values: d.values,
          receivedAt: d.receivedAt,
        });
        break;
      }
      case 'form.submission_deleted':
        f.submissions.delete((e.data as EventData<'form.submission_deleted'>).submissionId);
        break;
      case 'form.submissions_seen': {
        const d = e.data as EventData<'form.submissions_seen'>;
        const form = f.forms.get(d.formId);
        if (form && (form.seenThrough === null || form.seenThrough < d.through)) form.seenThrough = d.through;
        break;
      }
      case 'site.draft_saved': {
        const d = e.data as EventData<'site.draft_saved'>;
        const { formIds } = draftReferences(d.document as DraftDocument);
        if (formIds.length > 0) f.refs.set(`${d.siteId} ${e.streamVersion}`, new Set(formIds));
        break;
      }
    }
  }
  return f;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
