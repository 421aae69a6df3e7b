import { formatNaira } from '@shared/money.ts';
import { type PointerEvent, useId, useLayoutEffect, useRef, useState } from 'react';

export interface ChartSeries {
  key: string;
  label: string;
  /** A stroke colour from the palette (hex). */
  color: string;
  values: number[];
}

const compact = new Intl.NumberFormat('en-NG', { notation: 'compact', maximumFractionDigits: 1 });

/** ₦1.2K style: short enough for the axis. */
function axisMoney(value: number): string {
  const sign = value < 0 ? '-' : '';
  return `${sign}₦${compact.format(Math.abs(value))}`;
}

/** 2025-03-12 → '12 Mar' (the day as the server labels it, no time-zone shift). */
export function shortDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Date(Date.UTC(year, month - 1, date)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}

/** A round step (1, 2 or 5 × 10ⁿ) that splits `span` into about `count` parts. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

function scale(values: number[]) {
  let min = Math.min(0, ...values);
  let max = Math.max(0, ...values);
  if (min === max) max = min + 1000;
  const step = niceStep(max - min, 4);
  min = Math.floor(min / step) * step;
  max = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let tick = min; tick <= max + step / 2; tick += step) ticks.push(Math.round(tick));
  return { min, max, ticks };
}

/** The chart's width for a container this wide: whole pixels, never narrower than its labels. */
const chartWidth = (container: number) => Math.max(280, Math.round(container));

/** Follows the width of its container so text stays the same size on a phone and a laptop. */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  // Measured before the first paint: drawn at the fallback width first, the chart made a phone's
  // page scroll sideways until the observer's first answer, a frame or more later.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measured = element.getBoundingClientRect().width;
    if (measured > 0) setWidth(chartWidth(measured));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(chartWidth(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

const PAD = { top: 12, right: 12, bottom: 28, left: 60 };

/**
 * A hand-drawn SVG line chart of daily money movements: grid, naira axis, a line per series,
 * and a crosshair with the day's figures under the pointer. The same figures are in a table
 * below for screen readers and for copying.
 */
export function LineChart({
  title,
  days,
  series,
  height = 260,
}: {
  title: string;
  days: string[];
  series: ChartSeries[];
  height?: number;
}) {
  const { ref, width } = useWidth(640);
  const [hover, setHover] = useState<number | null>(null);
  const titleId = useId();
  const descriptionId = useId();
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = height - PAD.top - PAD.bottom;
  const { min, max, ticks } = scale(series.flatMap((line) => line.values));
  const x = (index: number) =>
    PAD.left + (days.length > 1 ? (index / (days.length - 1)) * plotWidth : plotWidth / 2);
  const y = (value: number) => PAD.top + ((max - value) / (max - min)) * plotHeight;
  const labelEvery = width < 480 ? 10 : 5;

  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const relative = ((event.clientX - box.left) / box.width) * width - PAD.left;
    const index = Math.round((relative / plotWidth) * (days.length - 1));
    setHover(Math.min(days.length - 1, Math.max(0, index)));
  }

  const totals = series.map((line) => ({
    label: line.label,
    total: line.values.reduce((sum, value) => sum + value, 0),
  }));

  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm" aria-label="Legend">
        {series.map((line) => (
          <li key={line.key} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className="h-1 w-5 rounded-full"
              style={{ backgroundColor: line.color }}
            />
            {line.label}
          </li>
        ))}
      </ul>
      <div ref={ref} className="relative w-full">
        <svg
          role="img"
          aria-labelledby={titleId}
          aria-describedby={descriptionId}
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          className="block h-auto max-w-full touch-pan-y select-none"
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHover(null)}
        >
          <title id={titleId}>{title}</title>
          <desc id={descriptionId}>
            {`${days.length} days. Totals: ${totals
              .map((item) => `${item.label} ${formatNaira(item.total)}`)
              .join(', ')}.`}
          </desc>
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                x1={PAD.left}
                x2={width - PAD.right}
                y1={y(tick)}
                y2={y(tick)}
                stroke={tick === 0 ? '#5a5a5a' : '#2e2e2e'}
                strokeDasharray={tick === 0 ? undefined : '3 4'}
              />
              <text
                x={PAD.left - 8}
                y={y(tick)}
                textAnchor="end"
                dominantBaseline="middle"
                fontSize="11"
                fill="#a3a3a3"
              >
                {axisMoney(tick)}
              </text>
            </g>
          ))}
          {days.map((day, index) =>
            index % labelEvery === 0 || index === days.length - 1 ? (
              <text
                key={day}
                x={x(index)}
                y={height - 8}
                textAnchor={index === 0 ? 'start' : index === days.length - 1 ? 'end' : 'middle'}
                fontSize="11"
                fill="#a3a3a3"
              >
                {shortDay(day)}
              </text>
            ) : null,
          )}
          {series.map((line) => (
            <polyline
              key={line.key}
              fill="none"
              stroke={line.color}
              strokeWidth="2"
              strokeLinejoin="round"
              strokeLinecap="round"
              points={line.values.map((value, index) => `${x(index)},${y(value)}`).join(' ')}
            />
          ))}
          {hover !== null ? (
            <g>
              <line
                x1={x(hover)}
                x2={x(hover)}
                y1={PAD.top}
                y2={PAD.top + plotHeight}
                stroke="#ffffff"
                strokeOpacity="0.3"
              />
              {series.map((line) => (
                <circle
                  key={line.key}
                  cx={x(hover)}
                  cy={y(line.values[hover] ?? 0)}
                  r="4"
                  fill={line.color}
                  stroke="#0b0b0b"
                  strokeWidth="2"
                />
              ))}
            </g>
          ) : null}
        </svg>
        {hover !== null ? (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute top-2 rounded-xl border border-line bg-card-raised px-3 py-2 text-xs shadow-lg"
            style={
              x(hover) > width / 2 ? { right: width - x(hover) + 12 } : { left: x(hover) + 12 }
            }
          >
            <p className="mb-1 font-semibold">{shortDay(days[hover] ?? '')}</p>
            {series.map((line) => (
              <p key={line.key} className="flex items-center gap-2 whitespace-nowrap">
                <span className="size-2 rounded-full" style={{ backgroundColor: line.color }} />
                {line.label}:{' '}
                <span className="font-semibold">{formatNaira(line.values[hover])}</span>
              </p>
            ))}
          </div>
        ) : null}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted hover:text-white">Show the figures</summary>
        <div className="relative mt-2 max-h-72 overflow-auto rounded-xl border border-line">
          <table className="w-full text-xs">
            <caption className="sr-only">{title}</caption>
            <thead className="sticky top-0 bg-card-raised">
              <tr>
                <th scope="col" className="px-3 py-2 text-left">
                  Day
                </th>
                {series.map((line) => (
                  <th key={line.key} scope="col" className="px-3 py-2 text-right">
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, index) => (
                <tr key={day} className="border-t border-line">
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">
                    {shortDay(day)}
                  </th>
                  {series.map((line) => (
                    <td key={line.key} className="px-3 py-1.5 text-right tabular-nums">
                      {formatNaira(line.values[index])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
