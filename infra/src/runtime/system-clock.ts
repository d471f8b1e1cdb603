import type { Clock } from '@tributary/services';

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests and the federation suite can move (e.g. a peer "down for 8 days"). */
export class AdjustableClock implements Clock {
  private offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
}
