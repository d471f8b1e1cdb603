// What each of the builder's page files is given (builder-pages.ts makes it once).
import type { Request, Response } from 'express';
import type { HttpContext } from '../../http/index.js';
import type { PagePrologue } from '../page-session.js';

export interface BuilderPage extends PagePrologue {
  ctx: HttpContext;
  /** SITES_DOMAIN: a site answers at `<label>.<sitesDomain>`. */
  sitesDomain: string;
  /**
   * The address a visitor types for a label, with BASE_URL's scheme and port (as the address's own URL is
   * made): `http://<label>.sites.localhost:3000/` on a non-default port.
   */
  siteAddress: (label: string) => string;
  /** Where previews are framed from: `<scheme>://preview.<SITES_DOMAIN>[:port]`. */
  previewOrigin: string;
  /** The `:siteId` of the request, or null after redirecting to /builder when it is not one. */
  siteIdOf: (req: Request, res: Response) => string | null;
}
