import { BreakNotice } from '@web/components/ui/BreakNotice.tsx';
import { usePlayBreak } from '@web/lib/play-break.ts';

/** Home's word to a player on a break, before they press Pluck on a game it would refuse. */
export function BreakBanner() {
  const onBreak = usePlayBreak();
  return onBreak ? <BreakNotice exclusion={onBreak} className="mb-6" /> : null;
}
