/** "15 minutes", "1 minute", "40 seconds": a wait as a 429 message words it. */
export function describeWait(seconds: number): string {
  const [count, unit] = seconds >= 60 ? [Math.round(seconds / 60), 'minute'] : [seconds, 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
