/** This process's resident memory while some work runs: how much the work added at its peak. */
import { readFile, writeFile } from 'node:fs/promises';
import { sleep } from './stats.ts';

const SAMPLE_MS = 10;

/** VmHWM (the kernel's peak resident set) in bytes, or null off Linux. */
async function kernelPeakRss(): Promise<number | null> {
  try {
    const status = await readFile('/proc/self/status', 'utf8');
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
    return kib ? Number(kib) * 1024 : null;
  } catch {
    return null;
  }
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0); false when the kernel does not allow it. */
async function resetKernelPeak(): Promise<boolean> {
  try {
    await writeFile('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

export interface RssGrowth<T> {
  result: T;
  beforeBytes: number;
  peakBytes: number;
  /** 'kernel': VmHWM reset before the work (exact); 'sampled': every 10 ms (may miss a spike). */
  method: 'kernel' | 'sampled';
}

/**
 * Runs `work` and reports the RSS before it and the highest RSS during it. The kernel's own
 * peak catches what a timer cannot (a synchronous burst blocks the timer too); sampling is
 * the fallback elsewhere.
 */
export async function measureRssGrowth<T>(work: () => Promise<T>): Promise<RssGrowth<T>> {
  await sleep(SAMPLE_MS);
  const beforeBytes = process.memoryUsage.rss();
  const kernel = await resetKernelPeak();
  let sampledPeak = beforeBytes;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
  }, SAMPLE_MS);
  try {
    const result = await work();
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
    const kernelPeak = kernel ? await kernelPeakRss() : null;
    return {
      result,
      beforeBytes,
      peakBytes: Math.max(sampledPeak, kernelPeak ?? 0),
      method: kernelPeak === null ? 'sampled' : 'kernel',
    };
  } finally {
    clearInterval(sampler);
  }
}
