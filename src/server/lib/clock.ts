/** Time as a dependency, so tests can move it (renewals, expiries, cooldowns). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
