// OpenAPI paths of the assistant settings, status, provenance, credential and vault routes
// (docs/assistant.md), from the same zod schemas the catalogue operations use.
import {
  listAssistantProvenance,
  readAssistantCredential,
  readAssistantSettingsOperation,
  readAssistantStatus,
  readVault,
  updateAssistantSettings,
  type Operation,
} from '@tributary/services';
import {
  aliasOperationId,
  openApiJson as json,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

const sessionOrRemoteViewer: Record<string, never[]>[] = [{ session: [] }, { remoteViewer: [] }];
const asAny = (op: unknown) => op as Operation<unknown, unknown>;

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

function query(op: Operation<unknown, unknown>, description: string, security = session, extra = '') {
  const schema = json(op.input) as { properties?: Record<string, unknown>; required?: string[] };
  return {
    operationId: aliasOperationId(op.name),
    summary: op.description + extra,
    tags: ['assistant'],
    security,
    parameters: Object.entries(schema.properties ?? {}).map(([name, s]) => ({
      name,
      in: 'query',
      required: (schema.required ?? []).includes(name),
      schema: s,
    })),
    responses: { '200': answer(op, description), default: problem },
  };
}

export function assistantSettingsPaths(): Record<string, unknown> {
  const settingsWrite = asAny(updateAssistantSettings);
  const vault = asAny(readVault);
  const { responses: _json, ...vaultQuery } = query(vault, '');
  return {
    '/api/autobot/settings': {
      get: query(
        asAny(readAssistantSettingsOperation),
        '{ result: settings }',
        sessionOrRemoteViewer,
        ' Also answers the remote-viewer cookie `svc_remote_viewer` (the visitor’s own settings, read-only).',
      ),
      post: {
        operationId: aliasOperationId(settingsWrite.name),
        summary:
          settingsWrite.description +
          ' A remote-viewer cookie is refused with 403 assistant.remote_viewer_read_only and nothing is written.',
        tags: ['assistant'],
        security: sessionOrRemoteViewer,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(settingsWrite.input) } },
        },
        responses: { '200': answer(settingsWrite, '{ result: settings } as now'), default: problem },
      },
    },
    '/api/autobot/status': {
      get: query(asAny(readAssistantStatus), '{ result: { model, planner, mcpEndpoint, connectedAccount } }'),
    },
    '/api/autobot/provenance': {
      get: query(asAny(listAssistantProvenance), '{ result: { entries, nextBefore } }'),
    },
    '/api/autobot/credential': {
      get: query(asAny(readAssistantCredential), '{ result: { agentId, handle, kind, credential, scopes } }'),
    },
    '/api/autobot/vault': {
      get: query(vault, '{ result: { agentId, markdown, entries, lastPosition } }'),
    },
    '/api/autobot/vault/download': {
      get: {
        ...vaultQuery,
        operationId: `${vault.name}.download`,
        summary:
          vault.description + ' Answered as the Markdown file itself (Content-Disposition: attachment).',
        responses: {
          '200': {
            description: 'The vault document',
            headers: {
              'Content-Disposition': {
                schema: { type: 'string' },
                description: 'attachment; filename="vault-<agentId>.md"',
              },
            },
            content: { 'text/markdown': { schema: { type: 'string' } } },
          },
          default: problem,
        },
      },
    },
  };
}
