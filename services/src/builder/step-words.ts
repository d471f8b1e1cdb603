// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { count, opt, q, type DescribeStep } from '../shared/step-words.js';

export const builderStepWords: Record<string, DescribeStep> = {
  'svc.builder.list_sites': () => 'List your sites',
  'svc.builder.create_site': (a) =>
    `Create a site titled ${q(a.title)}${opt('at the address', a.label)}${opt('from the template', a.template)}`,
  'svc.builder.read_site': (a, n) => `Read ${n.site(a.siteId)}`,
  'svc.builder.list_versions': (a, n) => `List the versions of ${n.site(a.siteId)}`,
  'svc.builder.list_history': (a, n) => `Read what was online when on ${n.site(a.siteId)}`,
  'svc.builder.update_site': (a, n) => {
    const what = [
      a.title !== undefined && `the title to ${q(a.title)}`,
      a.description !== undefined && `the description to ${q(a.description)}`,
      a.theme !== undefined && `the theme to ${q(a.theme)}`,
      a.language !== undefined && `the language to ${q(a.language)}`,
    ].filter(Boolean);
    return `Change the settings of ${n.site(a.siteId)}${what.length ? `: ${what.join(', ')}` : ''}`;
  },
  'svc.builder.read_draft': (a, n) => `Read the draft of ${n.site(a.siteId)}`,
  'svc.builder.save_draft': (a, n) => `Save a new draft of ${n.site(a.siteId)}`,
  'svc.builder.move_block': (a, n) =>
    `Move block ${Number(a.from) + 1} of the page ${q(a.page ?? '/')} to position ${Number(a.to) + 1} in the draft of ${n.site(a.siteId)}`,
  'svc.builder.undo_draft': (a, n) =>
    a.undoRestore === true
      ? `Undo the last change to the draft of ${n.site(a.siteId)}, even if it takes back a restored version`
      : `Undo the last change to the draft of ${n.site(a.siteId)}`,
  'svc.builder.redo_draft': (a, n) => `Redo what was undone in the draft of ${n.site(a.siteId)}`,
  'svc.builder.bind_domain': (a, n) => `Serve ${n.site(a.siteId)} at the domain ${q(a.domain)}`,
  'svc.builder.unbind_domain': (a, n) => `Stop serving ${n.site(a.siteId)} at the domain ${q(a.domain)}`,
  'svc.builder.list_domains': (a, n) => `List the custom domains of ${n.site(a.siteId)}`,
  'svc.builder.check_domain': (a) => `Check the domain ${q(a.domain)} now`,
  'svc.builder.preview': (a, n) => `Make a preview of ${n.site(a.siteId)}`,
  'svc.builder.publish': (a, n) =>
    `Publish the current draft of ${n.site(a.siteId)}${opt('with the note', a.note)}`,
  'svc.builder.rollback': (a, n) => `Serve ${n.version(a.versionId)} again on ${n.site(a.siteId)}`,
  'svc.builder.restore_version': (a, n) =>
    `Restore ${n.version(a.versionId)} into the draft of ${n.site(a.siteId)}`,
  'svc.builder.upload_media': (a) => `Upload an image${opt('named', a.filename)}`,
  'svc.builder.list_media': () => 'List your images',
  'svc.builder.read_media': (a, n) => `Read ${n.media(a.mediaId)}`,
  'svc.builder.delete_media': (a, n) => `Delete ${n.media(a.mediaId)}`,
  'svc.builder.claim_address': (a, n) => `Give ${n.site(a.siteId)} the address ${q(a.label)}`,
  'svc.builder.release_address': (a, n) => `Release the address of ${n.site(a.siteId)}`,
  'svc.builder.suspend_site': (a, n) => `Suspend ${n.site(a.siteId)} (${q(a.reason)})`,
  'svc.builder.unsuspend_site': (a, n) => `Lift the suspension of ${n.site(a.siteId)}`,
  'svc.builder.list_suspended_sites': () => 'List the suspended sites',
  'svc.builder.list_forms': () => 'List your forms',
  'svc.builder.create_form': (a) =>
    `Create a form named ${q(a.name)}${Array.isArray(a.fields) ? ` with ${count(a.fields.length, 'field')}` : ''}`,
  'svc.builder.update_form': (a, n) =>
    `Change ${n.form(a.formId)}${a.name !== undefined ? `, naming it ${q(a.name)}` : ''}`,
  'svc.builder.delete_form': (a, n) => `Delete ${n.form(a.formId)}`,
  'svc.builder.list_submissions': (a, n) =>
    a.formId === undefined
      ? 'List what visitors sent through your forms'
      : `List what visitors sent through ${n.form(a.formId)}`,
  'svc.builder.mark_submissions_seen': (a, n) =>
    `Mark what visitors sent through ${n.form(a.formId)} as seen`,
  'svc.builder.read_submission_mail': () => 'Read whether new form submissions are mailed to you',
  'svc.builder.set_submission_mail': (a, n) =>
    `${a.enabled ? 'Start' : 'Stop'} emailing you about new submissions through ${
      a.formId !== undefined ? n.form(a.formId) : n.site(a.siteId)
    }`,
  'svc.builder.export_submissions': (a, n) =>
    `Export what visitors sent through ${a.formId === undefined ? 'a form' : n.form(a.formId)}, as CSV`,
  'svc.builder.delete_submission': (a, n) => `Delete ${n.submission(a.submissionId)}`,
};
