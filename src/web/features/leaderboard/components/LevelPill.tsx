import { type LevelTone, levelBadge, levelTone } from '@shared/status.ts';

/** docs/product.md#states level pill colours: green 1, blue 2, purple 3, grey otherwise. */
export const LEVEL_PILL_CLASSES: Record<LevelTone, string> = {
  green: 'border-vip/40 bg-vip/10 text-vip',
  blue: 'border-sky-400/40 bg-sky-400/10 text-sky-300',
  purple: 'border-purple-400/40 bg-purple-400/10 text-purple-300',
  grey: 'border-white/20 bg-white/5 text-white/75',
};

export function LevelPill({ level }: { level: number }) {
  return (
    <span
      data-tone={levelTone(level)}
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-bold whitespace-nowrap ${LEVEL_PILL_CLASSES[levelTone(level)]}`}
    >
      Level {level}
    </span>
  );
}

export function StatusBadge({ level }: { level: number }) {
  const badge = levelBadge(level);
  const icon = level === 1 ? '🌱' : level === 2 ? '🚀' : '⭐';
  return (
    <span className="inline-flex items-center gap-1.5 text-sm whitespace-nowrap text-white/85">
      <span aria-hidden="true">{icon}</span>
      {badge}
    </span>
  );
}
