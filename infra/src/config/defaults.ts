// The defaults `tributary status` reads without loading the whole configuration (config.ts imports
// the instance's modules; status answers within a second, docs/cli.md#speed).
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 3000;
export const DEFAULT_DATA_DIR = './.tributary';
