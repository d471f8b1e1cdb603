// /api/builder/forms: an owner's forms (docs/builder.md#forms-and-submissions). GET lists them, POST
// creates one, PATCH changes the parts given, DELETE removes one (JSON body or query parameters).
// /api/builder/forms/submissions lists a form's submissions (GET, paged) and deletes one (DELETE);
// /api/builder/forms/submissions/seen marks them seen (the unread count); /api/builder/forms/mail reads
// (GET) and sets (PUT) mail about new submissions per site or form; /api/builder/forms/submissions.csv
// downloads them as CSV. Session only, like every builder route; each
// one a catalogue operation run through the pipeline.
import {
  createForm,
  deleteForm,
  deleteSubmission,
  exportSubmissions,
  listForms,
  listSubmissions,
  markSubmissionsSeen,
  readSubmissionMail,
  setSubmissionMail,
  updateForm,
} from '@tributary/services';
import { Router, type Request } from 'express';
import { operationRoute, runOperation, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

/** A DELETE's input: query parameters, then a JSON body's members over them. */
const queryAndBody = (req: Request) => ({
  ...(req.query as Record<string, unknown>),
  ...(req.body as object | undefined),
});

export const FORMS_CSV_PATH = '/api/builder/forms/submissions.csv';

export function formRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.get('/forms', operationRoute(ctx, listForms, { input: (req) => req.query }));
  r.post('/forms', ...o.browserWrites, operationRoute(ctx, createForm, { status: 201 }));
  r.patch('/forms', ...o.browserWrites, operationRoute(ctx, updateForm));
  r.delete('/forms', ...o.browserWrites, operationRoute(ctx, deleteForm, { input: queryAndBody }));
  r.get('/forms/submissions', operationRoute(ctx, listSubmissions, { input: (req) => req.query }));
  r.delete(
    '/forms/submissions',
    ...o.browserWrites,
    operationRoute(ctx, deleteSubmission, { input: queryAndBody }),
  );
  r.post('/forms/submissions/seen', ...o.browserWrites, operationRoute(ctx, markSubmissionsSeen));
  r.get('/forms/mail', operationRoute(ctx, readSubmissionMail, { input: (req) => req.query }));
  r.put('/forms/mail', ...o.browserWrites, operationRoute(ctx, setSubmissionMail));
  r.get('/forms/submissions.csv', async (req, res) => {
    const { result } = await runOperation(ctx, exportSubmissions, req.query, req);
    if (result.nextCursor) {
      const next = new URLSearchParams({
        ...(req.query as Record<string, string>),
        cursor: result.nextCursor,
      });
      res.setHeader('Link', `<${FORMS_CSV_PATH}?${next.toString()}>; rel="next"`);
    }
    res
      .status(200)
      .type(result.contentType)
      // The file name is a-z, 0-9, hyphens and dots (export-submissions.ts), so it needs no quoting rules.
      .setHeader('Content-Disposition', `attachment; filename="${result.filename}"`)
      .send(result.csv);
  });
  return r;
}
