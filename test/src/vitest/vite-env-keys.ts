/** The keys of Vite's import.meta.env that vitest writes into a test process's process.env. */
export const VITE_ENV_KEYS = ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR'] as const;
