// The operator's pages (controllers only): peers — add one from its URL after confirming its key id,
// rotate its shared secret, block or unblock it —, federation status per peer, and the log (recent
// public events and the last `tributary log verify`), and site suspensions (list, suspend with a
// reason, lift). Each action is the catalogue operation the CLI and /api/federation/peers run.
import { Router } from 'express';
import type { HttpContext } from '../http/index.js';
import { type OperatorPorts } from './operator-kit.js';
import { operatorLogRoutes } from './operator-log-page.js';
import { operatorPeersRoutes } from './operator-peers-page.js';
import { operatorSitesRoutes } from './operator-sites-page.js';
import { pageErrors } from './page-session.js';

export {
  OPERATOR_TABS,
  operatorTabs,
  postingOperator,
  requireOperator,
  type LogVerifyRun,
  type OperatorPorts,
  type PeerManifestFacts,
} from './operator-kit.js';

export function operatorPages(ctx: HttpContext, ports: OperatorPorts): Router {
  const r = Router();
  operatorPeersRoutes(r, ctx, ports);
  operatorSitesRoutes(r, ctx);
  operatorLogRoutes(r, ctx, ports);
  r.use(pageErrors(ctx));
  return r;
}
