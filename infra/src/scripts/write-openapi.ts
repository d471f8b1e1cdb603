// Writes docs/openapi.json from the catalogue's zod schemas (`npm run docs:openapi`).
// A test fails when the committed document differs from what this generates.
import { openApiDocument } from '@tributary/adapters';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OPENAPI_PATH = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
export const renderOpenApi = () => JSON.stringify(openApiDocument('http://localhost:3000'), null, 2) + '\n';

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OPENAPI_PATH, renderOpenApi());
  console.log(`wrote ${OPENAPI_PATH}`);
}
