// What each of the builder's page files is given (builder-pages.ts makes it once).
import type { Request, Response } from 'express';
import type { HttpContext } from '../../http/index.js';
import type { PagePrologue } from '../page-session.js';

export interface BuilderPage extends PagePrologue {
  ctx: HttpContext;
  /** SITES_DOMAIN: a site answers at `<label>.<sitesDomain>`. */
  sitesDomain: string;
  /** Where previews are framed from: `<scheme>://preview.<SITES_DOMAIN>[:port]`. */
  previewOrigin: string;
  /** The `:siteId` of the request, or null after redirecting to /builder when it is not one. */
  siteIdOf: (req: Request, res: Response) => string | null;
}
