// OpenAPI paths of the site builder's REST routes (docs/builder.md), from the same zod schemas the
// catalogue operations use. Every builder route is listed here (the openapi-routes test checks it).
import {
  createForm,
  createSite,
  deleteForm,
  deleteSubmission,
  exportSubmissions,
  listForms,
  listSubmissions,
  markSubmissionsSeen,
  readSubmissionMail,
  setSubmissionMail,
  updateForm,
  deleteMedia,
  listMedia,
  readMedia,
  uploadMedia,
  MEDIA_MAX_BYTES_CEILING,
  listSites,
  previewSite,
  publishSite,
  rollbackSite,
  restoreVersion,
  undoDraft,
  redoDraft,
  readDraft,
  readSite,
  saveDraft,
  moveBlock,
  suspendSite,
  listSuspendedSites,
  unsuspendSite,
  updateSite,
  type Operation,
} from '@tributary/services';
import { domainPaths } from './openapi-domains.js';
import { DRAFT_BODY_MAX_BYTES } from './route-options.js';
import { MULTIPART_OVERHEAD_BYTES } from './media-routes.js';
import { FORMS_CSV_PATH } from './form-routes.js';
import {
  aliasOperationId,
  openApiJson as json,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

/** `{ result }` with the operation's output. */
const answer = (op: Operation<unknown, unknown>, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['result'],
        properties: { result: op.output ? json(op.output, 'output') : { type: 'object' } },
      },
    },
  },
});

/** A GET route: the operation's input as query parameters. */
function query(op: Operation<unknown, unknown>, status: string, description: string) {
  const schema = json(op.input) as { properties?: Record<string, unknown>; required?: string[] };
  return {
    operationId: aliasOperationId(op.name),
    summary: op.description,
    tags: ['builder'],
    security: session,
    parameters: Object.entries(schema.properties ?? {}).map(([name, s]) => ({
      name,
      in: 'query',
      required: (schema.required ?? []).includes(name),
      schema: s,
    })),
    responses: { [status]: answer(op, description), default: problem },
  };
}

/** A write: the operation's input as the JSON body. */
function write(op: Operation<unknown, unknown>, status: string, description: string, extra = '') {
  return {
    operationId: aliasOperationId(op.name),
    summary: op.description + extra,
    tags: ['builder'],
    security: session,
    requestBody: { required: true, content: { 'application/json': { schema: json(op.input) } } },
    responses: { [status]: answer(op, description), default: problem },
  };
}

const asAny = (op: unknown) => op as Operation<unknown, unknown>;

/** A DELETE: the operation's input as a JSON body or as query parameters. */
function remove(op: Operation<unknown, unknown>, status: string, description: string) {
  const { requestBody, ...rest } = write(op, status, description);
  const q = query(op, status, description);
  return {
    ...rest,
    parameters: q.parameters.map((p) => ({ ...p, required: false })),
    requestBody: { ...requestBody, required: false },
  };
}

/** POST /api/builder/media: multipart/form-data, one `file` part (svc.builder.upload_media). */
function mediaUpload() {
  const op = asAny(uploadMedia);
  return {
    operationId: aliasOperationId(op.name),
    summary:
      op.description +
      ` The body is multipart/form-data: one \`file\` part (its bytes decide the type; its filename is recorded), ` +
      `optional \`targetAgentId\` and \`alt\` fields, nothing else. A file over BUILDER_MEDIA_MAX_BYTES (10 MiB by ` +
      `default, at most ${MEDIA_MAX_BYTES_CEILING}), or a body declaring more than that plus ${MULTIPART_OVERHEAD_BYTES} ` +
      `bytes, is 413 builder.media_too_large and the connection closes.`,
    tags: ['builder'],
    security: session,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: {
                type: 'string',
                format: 'binary',
                description: 'the image: JPEG, PNG, WebP, GIF or AVIF',
              },
              targetAgentId: {
                type: 'string',
                format: 'uuid',
                description: 'the agent or persona acted for',
              },
              alt: {
                type: 'string',
                maxLength: 1000,
                description: 'alt text, recorded up to 300 characters',
              },
            },
          },
          encoding: { file: { contentType: 'image/jpeg, image/png, image/webp, image/gif, image/avif' } },
        },
      },
    },
    responses: {
      '201': answer(op, '{ result: { media, created: true } }: the item recorded'),
      '200': answer(op, '{ result: { media, created: false } }: the owner already held these bytes'),
      default: problem,
    },
  };
}

/** GET /api/builder/media/thumbnail: a WebP thumbnail of one item, after svc.builder.read_media. */
function mediaThumbnailRoute() {
  const op = asAny(readMedia);
  const { responses: _json, ...rest } = query(op, '200', '');
  const parameters = [
    ...((rest as { parameters?: unknown[] }).parameters ?? []),
    {
      name: 'size',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['64', '128', '256', '512'], default: '256' },
      description: 'the longer side in pixels (never enlarged)',
    },
  ];
  return {
    ...rest,
    operationId: 'builder.media_thumbnail',
    parameters,
    summary:
      'A thumbnail of one picture of the owner’s library: svc.builder.read_media decides who may see it ' +
      '(404 builder.media_not_found otherwise), then the stored image is re-encoded as a WebP. Answered ' +
      'with X-Content-Type-Options: nosniff, a sandboxing Content-Security-Policy, Cache-Control: private ' +
      'and an ETag (If-None-Match → 304).',
    responses: {
      '200': {
        description: 'The thumbnail',
        headers: {
          ETag: { schema: { type: 'string' }, description: 'the item’s bytes and the size' },
          'Cache-Control': { schema: { type: 'string' }, description: 'private, max-age=3600' },
        },
        content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } },
      },
      '304': { description: 'Not modified: the ETag given in If-None-Match is current' },
      default: problem,
    },
  };
}

/** GET /api/builder/forms/submissions.csv: the export as a CSV download (svc.builder.export_submissions). */
function csvExport() {
  const op = asAny(exportSubmissions);
  const { responses: _json, ...rest } = query(op, '200', '');
  return {
    ...rest,
    summary:
      op.description +
      ' Answered as the file itself (Content-Disposition: attachment), with Link: <…>; rel="next" when more rows remain.',
    responses: {
      '200': {
        description: 'The CSV file: a header row, then one row per submission',
        headers: {
          'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…csv"' },
          Link: { schema: { type: 'string' }, description: 'the next part of the export, when there is one' },
        },
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
      default: problem,
    },
  };
}

export function builderPaths(): Record<string, unknown> {
  return {
    '/api/builder/sites': {
      get: query(asAny(listSites), '200', "{ result: { sites } }, the owner's default site first"),
      post: write(asAny(createSite), '201', '{ result: site }: the site created'),
    },
    '/api/builder/site': {
      get: query(asAny(readSite), '200', '{ result: { site, publication, versions, nextBefore } }'),
      post: write(asAny(updateSite), '200', '{ result: site } with its settings as now'),
    },
    '/api/builder/suspend': {
      post: write(
        asAny(suspendSite),
        '200',
        '{ result: { siteId, ownerAgentId, suspended: true, reason } }',
        ' Operators only (403 auth.controller_only otherwise).',
      ),
      delete: write(
        asAny(unsuspendSite),
        '200',
        '{ result: { siteId, ownerAgentId, suspended: false, reason: null } }',
        ' Operators only. The body may also be given as query parameters.',
      ),
    },
    '/api/builder/suspended': {
      get: query(
        asAny(listSuspendedSites),
        '200',
        '{ result: { sites: [{ siteId, ownerAgentId, title, reason, suspendedAt }], nextAfter } }. Operators only (403 auth.controller_only otherwise).',
      ),
    },
    '/api/builder/preview': {
      post: write(
        asAny(previewSite),
        '200',
        '{ result: { siteId, versionId, manifestHash, draftRevision, reused, previewUrl, expiresAt, path, html } }',
      ),
    },
    '/api/builder/publish': {
      post: write(
        asAny(publishSite),
        '200',
        '{ result: { siteId, versionId, manifestHash, draftRevision, reused, published, address, addressClaimed, liveUrl } }',
        ' 403 builder.site_suspended carries the reason; 409 builder.label_taken when no address derived from the title is free (claim one first).',
      ),
    },
    '/api/builder/rollback': {
      post: write(
        asAny(rollbackSite),
        '200',
        '{ result: { siteId, versionId, manifestHash, fromVersionId, state } }',
        ' A version of another site is 404 builder.version_not_found; a preview is 409 builder.version_not_published; 403 builder.site_suspended carries the reason.',
      ),
    },
    '/api/builder/restore': {
      post: write(
        asAny(restoreVersion),
        '200',
        '{ result: { siteId, versionId, revision, restored, state } }',
        ' A preview is 409 builder.version_not_published; 409 builder.draft_stale carries currentRevision.',
      ),
    },
    '/api/builder/draft': {
      get: query(
        asAny(readDraft),
        '200',
        '{ result: { siteId, revision, document, updatedAt, canUndo, canRedo } }',
      ),
      put: write(
        asAny(saveDraft),
        '201',
        '{ result: { siteId, revision, updatedAt } }: the draft saved as a new revision',
        ` A body is at most ${DRAFT_BODY_MAX_BYTES} bytes; 409 builder.draft_stale carries currentRevision.`,
      ),
    },
    '/api/builder/draft/move-block': {
      post: write(
        asAny(moveBlock),
        '200',
        '{ result: { siteId, revision, moved, updatedAt } }: the draft with the block moved, as a new revision',
        ' 404 builder.page_not_found or builder.block_not_found, 400 builder.block_position_invalid (both carry `blocks`), 409 builder.draft_stale carries currentRevision; nothing is saved then.',
      ),
    },
    '/api/builder/draft/undo': {
      post: write(
        asAny(undoDraft),
        '200',
        '{ result: { siteId, revision, restoredRevision, canUndo, canRedo, updatedAt, restore, wasOnline, isOnline } }: the state before the last change, as a new revision',
        ' 409 builder.nothing_to_undo when there is no earlier state; 409 builder.undo_takes_back_restore when the step would take back a restore of a published version into the draft (versionId, versionPublishedAt and restoredAt in the body; send undoRestore: true to do it); 409 builder.draft_stale carries currentRevision.',
      ),
    },
    '/api/builder/draft/redo': {
      post: write(
        asAny(redoDraft),
        '200',
        '{ result: { siteId, revision, restoredRevision, canUndo, canRedo, updatedAt, restore, wasOnline, isOnline } }: the state an undo left, as a new revision',
        ' 409 builder.nothing_to_redo when nothing was undone since the last change; 409 builder.draft_stale carries currentRevision.',
      ),
    },
    '/api/builder/media': {
      get: query(
        asAny(listMedia),
        '200',
        "{ result: { items, nextBefore } }: the owner's media, newest first",
      ),
      post: mediaUpload(),
      delete: remove(asAny(deleteMedia), '200', '{ result: { mediaId, deleted: true } }'),
    },
    '/api/builder/media/item': {
      get: query(asAny(readMedia), '200', '{ result: media }: one item of the owner’s library'),
    },
    '/api/builder/media/thumbnail': { get: mediaThumbnailRoute() },
    '/api/builder/forms': {
      get: query(asAny(listForms), '200', "{ result: { forms } }: the owner's forms, oldest first"),
      post: write(asAny(createForm), '201', '{ result: { form } }: the form created'),
      patch: write(
        asAny(updateForm),
        '200',
        '{ result: { form } } as it is now',
        ' Only the parts given change; `fields`, when given, is the whole new list.',
      ),
      delete: remove(asAny(deleteForm), '200', '{ result: { formId, deleted: true } }'),
    },
    '/api/builder/forms/submissions': {
      get: query(
        asAny(listSubmissions),
        '200',
        '{ result: { formId, submissions, nextCursor } }: newest first',
      ),
      delete: remove(asAny(deleteSubmission), '200', '{ result: { submissionId, formId, deleted: true } }'),
    },
    '/api/builder/forms/submissions/seen': {
      post: write(
        asAny(markSubmissionsSeen),
        '200',
        '{ result: { formId, seenThrough, unreadCount } }: the submissions up to `through` no longer count as unread',
      ),
    },
    '/api/builder/forms/mail': {
      get: query(
        asAny(readSubmissionMail),
        '200',
        '{ result: { delivery, email, quietSeconds, sites, forms } }: whether new submissions are mailed, and each setting',
      ),
      put: write(
        asAny(setSubmissionMail),
        '200',
        '{ result: { delivery, email, quietSeconds, sites, forms } } as it is now',
        ' Give one of `siteId`, `formId`.',
      ),
    },
    [FORMS_CSV_PATH]: { get: csvExport() },
    ...domainPaths(),
  };
}
