// The builder's and the assistant's pages and their forms in the OpenAPI document (docs/web.md#builder,
// #assistant): HTML for people, listed so the document names every route the app answers. Each form
// runs the catalogue operation it names, as the signed-in person.
import { sessionSecurity as session } from '../http/index.js';
import { formPost, page } from './openapi-web.js';

const siteId = { name: 'siteId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const formId = { name: 'formId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const threadId = { name: 'threadId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const as = 'act for this identity of yours (targetAgentId)';

const withParams = (params: object[], op: Record<string, Record<string, unknown>>) =>
  Object.fromEntries(Object.entries(op).map(([m, o]) => [m, { ...o, parameters: params }]));

/** A multipart form post (a picture): the CSRF token is one of its fields. */
const uploadPost = (operationId: string, summary: string, fields: Record<string, string>) => ({
  post: {
    operationId,
    summary,
    tags: ['pages'],
    security: session,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['csrf', 'file'],
            properties: {
              csrf: { type: 'string', description: 'the form’s CSRF token' },
              file: { type: 'string', format: 'binary' },
              ...Object.fromEntries(
                Object.entries(fields).map(([k, d]) => [k, { type: 'string', description: d }]),
              ),
            },
          },
        },
      },
    },
    responses: {
      '303': { description: 'Uploaded: back to the page' },
      '400': { description: 'The page again, with the refusal and its code' },
      '403': { description: 'A wrong CSRF token, or another origin: nothing written' },
      '413': { description: 'Too large: the page with the refusal' },
    },
  },
});

/** An editor form: one edit of the draft, saved over the revision the form was shown with. */
const draftEdit = {
  edit: 'page.add | page.update | page.delete | block.add | block.update | block.move | block.delete | navigation.update | footer.update',
  revision:
    'the draft revision the form was shown with (a newer one: 409 builder.draft_stale, nothing saved)',
  page: 'the page’s index in the draft',
  block: 'the block’s index on the page',
  as,
};

export function studioPaths(): Record<string, unknown> {
  return {
    '/builder': page('web.builder_sites', 'Your sites (or an identity’s), the default first; a new site'),
    '/builder/sites': formPost(
      'web.builder_create_site',
      'Create a site (svc.builder.create_site)',
      { title: '', label: '', as },
      ['title'],
    ),
    '/builder/sites/{siteId}': withParams(
      [siteId],
      page(
        'web.builder_editor',
        'The draft editor (pages, blocks, navigation, footer, settings) and the preview pane',
      ),
    ),
    '/builder/sites/{siteId}/draft': withParams(
      [siteId],
      formPost(
        'web.builder_edit_draft',
        'One edit of the draft (svc.builder.read_draft, then svc.builder.save_draft), then a preview',
        draftEdit,
        ['edit', 'revision'],
      ),
    ),
    '/builder/sites/{siteId}/undo': withParams(
      [siteId],
      formPost(
        'web.builder_undo_draft',
        'Undo the last change to the draft (svc.builder.undo_draft), then a preview; one taking back a restore asks first (409)',
        { revision: '', page: '', undoRestore: '1 to take back a restore', as },
        ['revision'],
      ),
    ),
    '/builder/sites/{siteId}/redo': withParams(
      [siteId],
      formPost(
        'web.builder_redo_draft',
        'Redo what was undone (svc.builder.redo_draft), then a preview',
        { revision: '', page: '', as },
        ['revision'],
      ),
    ),
    '/builder/sites/{siteId}/preview': withParams(
      [siteId],
      formPost(
        'web.builder_preview',
        'Preview the draft (svc.builder.preview); back to the editor showing it',
        { page: '', as },
        [],
      ),
    ),
    '/builder/sites/{siteId}/settings': withParams(
      [siteId],
      formPost(
        'web.builder_update_site',
        'Change the site’s settings (svc.builder.update_site)',
        { title: '', theme: '', description: '', language: '', as },
        [],
      ),
    ),
    '/builder/sites/{siteId}/publish': withParams([siteId], {
      ...page('web.builder_versions', 'Publish, and the published versions with rollback and restore'),
      ...formPost('web.builder_publish', 'Publish the draft (svc.builder.publish)', { note: '', as }, []),
    }),
    '/builder/sites/{siteId}/rollback': withParams(
      [siteId],
      formPost(
        'web.builder_rollback',
        'Serve a published version again (svc.builder.rollback)',
        { versionId: '', as },
        ['versionId'],
      ),
    ),
    '/builder/sites/{siteId}/restore': withParams(
      [siteId],
      formPost(
        'web.builder_restore',
        'Put a published version back into the draft (svc.builder.restore_version)',
        { versionId: '', revision: '', as },
        ['versionId'],
      ),
    ),
    '/builder/sites/{siteId}/address': withParams([siteId], {
      ...page(
        'web.builder_address',
        'The free address and the custom domains with their DNS records and state',
      ),
      ...formPost(
        'web.builder_claim_address',
        'Claim an address (svc.builder.claim_address)',
        { label: '', as },
        [],
      ),
    }),
    '/builder/sites/{siteId}/address/release': withParams(
      [siteId],
      formPost(
        'web.builder_release_address',
        'Release the address (svc.builder.release_address)',
        { as },
        [],
      ),
    ),
    '/builder/sites/{siteId}/domains': withParams(
      [siteId],
      formPost(
        'web.builder_bind_domain',
        'Connect a custom domain (svc.builder.bind_domain)',
        { domain: '', as },
        ['domain'],
      ),
    ),
    '/builder/sites/{siteId}/domains/check': withParams(
      [siteId],
      formPost(
        'web.builder_check_domain',
        'Check a domain’s DNS records now (svc.builder.check_domain)',
        { domain: '', as },
        ['domain'],
      ),
    ),
    '/builder/sites/{siteId}/domains/unbind': withParams(
      [siteId],
      formPost(
        'web.builder_unbind_domain',
        'Disconnect a custom domain (svc.builder.unbind_domain)',
        { domain: '', as },
        ['domain'],
      ),
    ),
    '/builder/media': {
      ...page('web.builder_media', 'The picture library'),
      ...uploadPost(
        'web.builder_upload_media',
        'Upload a picture (svc.builder.upload_media), into a page with `add` (an image needs its alt text)',
        {
          alt: 'alt text',
          as,
          site: 'the site to come back to',
          page: 'the page of the site (its position)',
          add: 'image or gallery: put the picture in the page',
          after: 'the block it goes after (its position)',
        },
      ),
    },
    '/builder/media/delete': formPost(
      'web.builder_delete_media',
      'Delete a picture (svc.builder.delete_media)',
      { mediaId: '', as },
      ['mediaId'],
    ),
    '/builder/forms': {
      ...page('web.builder_forms', 'Your forms; a new form'),
      ...formPost(
        'web.builder_create_form',
        'Create a form (svc.builder.create_form); its fields as repeated flabel/ftype/fname/foptions/frequired',
        { name: '', successMessage: '', as },
        ['name'],
      ),
    },
    '/builder/forms/{formId}': withParams([formId], {
      ...page('web.builder_form', 'A form: its submissions (CSV download), and its fields'),
      ...formPost(
        'web.builder_update_form',
        'Change a form (svc.builder.update_form)',
        { name: '', successMessage: '', as },
        ['name'],
      ),
    }),
    '/builder/forms/{formId}/delete': withParams(
      [formId],
      formPost('web.builder_delete_form', 'Delete a form (svc.builder.delete_form)', { as }, []),
    ),
    '/builder/forms/{formId}/mail': withParams(
      [formId],
      formPost(
        'web.builder_set_submission_mail',
        'Turn email about new submissions on or off for a form or a site (svc.builder.set_submission_mail); one of formId, siteId',
        { formId: '', siteId: '', enabled: '', as },
        ['enabled'],
      ),
    ),
    '/builder/forms/{formId}/submissions/delete': withParams(
      [formId],
      formPost(
        'web.builder_delete_submission',
        'Delete a submission (svc.builder.delete_submission)',
        { submissionId: '', as },
        ['submissionId'],
      ),
    ),
    '/assistant': page('web.assistant', 'The assistant: the message box and your conversations'),
    '/assistant/threads/{threadId}': withParams(
      [threadId],
      page('web.assistant_thread', 'A conversation with its plan cards (Confirm, Cancel) and the reply box'),
    ),
    '/assistant/threads/{threadId}/delete': withParams(
      [threadId],
      formPost('web.assistant_delete_thread', 'Delete a conversation (svc.assistant.delete_thread)', {}, []),
    ),
    '/assistant/chat': formPost(
      'web.assistant_chat',
      'Send a message without JavaScript (svc.assistant.chat); to the thread',
      { message: '', threadId: '', attachmentIds: 'repeated' },
      ['message'],
      { then: 'To the thread, at the reply' },
    ),
    '/assistant/attachments': uploadPost(
      'web.assistant_attach',
      'Attach a picture to the next message (svc.assistant.add_attachment)',
      {
        threadId: '',
        attached: 'pictures attached so far',
      },
    ),
    '/assistant/plans/decide': formPost(
      'web.assistant_decide',
      'Confirm or cancel a plan, all or the chosen steps (svc.assistant.decide_actions)',
      {
        threadId: '',
        messageId: '',
        planHash: '',
        decision: 'confirm | cancel',
        steps: 'repeated step numbers',
      },
      ['threadId', 'messageId', 'planHash', 'decision'],
    ),
    '/assistant/vault': page('web.assistant_vault', 'The vault document (svc.assistant.read_vault)'),
    '/assistant/settings': {
      ...page('web.assistant_settings', 'The assistant’s status and settings'),
      ...formPost(
        'web.assistant_update_settings',
        'Change the settings (svc.assistant.update_settings)',
        { model: '', defaultPersonaId: '', autoRunReadTools: 'repeated', vault: 'on' },
        [],
      ),
    },
    '/assistant/account': page('web.assistant_account', 'The connected external-assistant account'),
    '/assistant/account/sign-in': formPost(
      'web.assistant_sign_in',
      'Start the device sign-in (svc.assistant.account.start_sign_in); the page shows the code',
      { as },
      [],
      { then: '200: the page with the code to enter at the provider' },
    ),
    '/assistant/account/poll': formPost(
      'web.assistant_poll_sign_in',
      'Check whether the sign-in was approved (svc.assistant.account.poll_sign_in)',
      { signInId: '', as },
      ['signInId'],
    ),
    '/assistant/account/disconnect': formPost(
      'web.assistant_disconnect',
      'Disconnect the account (svc.assistant.account.disconnect)',
      { as },
      [],
    ),
  };
}
