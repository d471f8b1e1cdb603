// The manifests area: its reads over the pool; it has no ports of its own.
import { defineArea } from './area.js';

export const manifestsArea = defineArea((ctx) => ({ services: { manifests: { read: ctx.read.manifests } } }));
