interface Window {
  count: number;
  resetsAt: number;
}

/**
 * Counts hits per key in fixed windows (e.g. requests per client address per minute). Expired
 * windows are dropped by `sweep`; past `capacity` keys the oldest window goes first, so a flood
 * of spoofed addresses cannot grow it without bound.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly windowMs: number,
    private readonly capacity = 100_000,
  ) {}

  /** Counts one hit; returns the key's window after it. */
  hit(key: string, nowMs: number): Readonly<Window> {
    let window = this.windows.get(key);
    if (!window || window.resetsAt <= nowMs) {
      window = { count: 0, resetsAt: nowMs + this.windowMs };
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > this.capacity) {
        const oldest = this.windows.keys().next();
        if (!oldest.done) this.windows.delete(oldest.value);
      }
    }
    window.count += 1;
    return window;
  }

  sweep(nowMs: number): void {
    for (const [key, window] of this.windows)
      if (window.resetsAt <= nowMs) this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }
}

/** "15 minutes", "1 minute", "40 seconds": a wait as a 429 message words it. */
export function describeWait(seconds: number): string {
  const [count, unit] = seconds >= 60 ? [Math.round(seconds / 60), 'minute'] : [seconds, 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
