// The builder's pages (docs/web.md#builder): the person's sites, the draft editor with its preview pane,
// publishing and versions, the address and custom domains, the media library and forms with their
// submissions, one file each. Server-rendered forms that post and redirect, so all of it works without
// JavaScript; every change runs the same catalogue operation the REST routes and MCP tools run.
import { Router, type Request, type Response } from 'express';
import type { HttpContext } from '../../http/index.js';
import { notice } from '../components.js';
import { html } from '../html.js';
import { pagePrologue } from '../page-session.js';
import { addressPageRoutes } from './address-page.js';
import type { BuilderPage } from './builder-page.js';
import { NOTICES } from './builder-pieces.js';
import { editorPageRoutes } from './editor-page.js';
import { builderFormRoutes } from './form-pages.js';
import { mediaPageRoutes } from './media-page.js';
import { publishPageRoutes } from './publish-page.js';
import { sitesPageRoutes } from './sites-page.js';
import { actingAs, href, isUuid } from './studio-support.js';

export interface BuilderPageOptions {
  /** SITES_DOMAIN: previews are framed from `preview.<sitesDomain>`, the sites' origin. */
  sitesDomain: string;
}

export function builderPages(ctx: HttpContext, o: BuilderPageOptions): Router {
  const r = Router();
  const base = new URL(ctx.baseUrl);
  const prologue = pagePrologue(ctx, NOTICES);
  const page: BuilderPage = {
    ...prologue,
    // The notice after a form is made from the editor links to that form's page.
    noticeOf: (req: Request) => {
      const formId = req.query.form;
      if (req.query.notice !== 'formadded' || typeof formId !== 'string' || !isUuid(formId))
        return prologue.noticeOf(req);
      const as = actingAs(req);
      return notice(
        'success',
        html`Form created and added to the page. Change its fields and see its answers on
          <a href="${href(`/builder/forms/${formId}`, as)}" data-field="form-page">the form’s page</a>.`,
      );
    },
    ctx,
    sitesDomain: o.sitesDomain,
    siteAddress: (label) => `${base.protocol}//${label}.${o.sitesDomain}${base.port ? `:${base.port}` : ''}/`,
    /** Where previews are framed from: `<scheme>://preview.<SITES_DOMAIN>[:port]`. */
    previewOrigin: `${base.protocol}//preview.${o.sitesDomain}${base.port ? `:${base.port}` : ''}`,
    siteIdOf: (req: Request, res: Response) => {
      const id = req.params.siteId;
      if (isUuid(id)) return id;
      res.redirect(303, '/builder');
      return null;
    },
  };
  sitesPageRoutes(r, page);
  editorPageRoutes(r, page);
  publishPageRoutes(r, page);
  addressPageRoutes(r, page);
  mediaPageRoutes(r, page);
  r.use(builderFormRoutes(ctx));
  return r;
}
