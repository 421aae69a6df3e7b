import { useEffect, useState } from 'react';
import { type TimeLeft, timeLeft, timeLeftText } from '../lib/countdown.ts';

/** Seconds tick on screen; screen readers get the same time in words without the ticking. */
export function useTimeLeft(target: number): TimeLeft {
  const [now, setNow] = useState(() => Date.now());
  const left = timeLeft(target, now);
  useEffect(() => {
    if (left.done) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [left.done]);
  return left;
}

export function Countdown({ left }: { left: TimeLeft }) {
  const parts = [
    { label: 'Days', value: left.days },
    { label: 'Hours', value: left.hours },
    { label: 'Minutes', value: left.minutes },
    { label: 'Seconds', value: left.seconds },
  ];
  return (
    <div role="timer" aria-label={`Launch in ${timeLeftText(left)}`}>
      <ul aria-hidden="true" className="grid grid-cols-4 gap-2 sm:gap-3">
        {parts.map((part) => (
          <li
            key={part.label}
            className="flex flex-col items-center rounded-2xl border border-accent/30 bg-page/70 px-1 py-3 sm:py-5"
          >
            <span className="text-3xl font-bold text-accent tabular-nums sm:text-5xl">
              {String(part.value).padStart(2, '0')}
            </span>
            <span className="mt-1 text-[11px] font-semibold tracking-wider text-muted uppercase sm:text-xs">
              {part.label}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
