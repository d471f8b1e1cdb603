// The assistant's REST routes under /api/autobot (docs/assistant.md) that this part serves: settings
// (which also take the read-only remote-viewer cookie), status, provenance, credential and the vault
// document. Each is a catalogue operation run through the pipeline.
import {
  listAssistantProvenance,
  readAssistantCredential,
  readAssistantSettingsOperation,
  readAssistantStatus,
  readVault,
  updateAssistantSettings,
} from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { operationRoute, principalOrRemoteViewerOf, runOperation, type HttpContext } from '../http/index.js';

export interface SettingsRouteOptions {
  /** Same-origin and JSON checks plus the JSON body parser, as for every cookie-authenticated write. */
  browserWrites: RequestHandler[];
}

export function assistantSettingsRoutes(ctx: HttpContext, o: SettingsRouteOptions): Router {
  const r = Router();
  // A session, or the remote-viewer cookie: a remote viewer reads its own settings and is refused any
  // change with 403 assistant.remote_viewer_read_only (nothing written).
  r.get('/settings', async (req, res) => {
    const principal = await principalOrRemoteViewerOf(ctx, req);
    const { result } = await runOperation(ctx, readAssistantSettingsOperation, {}, principal);
    res.json({ result });
  });
  r.post('/settings', ...o.browserWrites, async (req, res) => {
    const principal = await principalOrRemoteViewerOf(ctx, req);
    const { result } = await runOperation(ctx, updateAssistantSettings, req.body ?? {}, principal, req);
    res.json({ result });
  });
  r.get('/status', operationRoute(ctx, readAssistantStatus, { input: () => ({}) }));
  r.get('/provenance', operationRoute(ctx, listAssistantProvenance, { input: (req) => req.query }));
  r.get('/credential', operationRoute(ctx, readAssistantCredential, { input: (req) => req.query }));
  r.get('/vault', operationRoute(ctx, readVault, { input: (req) => req.query }));
  // The same document as a file: text/markdown, as an attachment named for the agent.
  r.get('/vault/download', async (req, res) => {
    const { result } = await runOperation(ctx, readVault, req.query, req);
    res
      .status(200)
      .type('text/markdown; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="vault-${result.agentId}.md"`)
      .send(result.markdown);
  });
  return r;
}
