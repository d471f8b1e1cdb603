// The agents area: its reads (agents, personas, follows) over the pool; it has no ports of its own.
import { defineArea } from './area.js';

export const agentsArea = defineArea((ctx) => ({ services: { agents: { read: ctx.read.agents } } }));
