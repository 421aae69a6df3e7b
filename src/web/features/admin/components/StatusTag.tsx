import { Tag, type TagTone } from '@web/components/ui/GameCard.tsx';
import { humanise } from '../lib/format.ts';

const TONES: Record<string, TagTone> = {
  pending: 'wallet',
  processing: 'accent',
  successful: 'live',
  success: 'live',
  paid: 'live',
  completed: 'live',
  active: 'live',
  failed: 'danger',
  rejected: 'danger',
  cancelled: 'danger',
  abandoned: 'danger',
  suspended: 'danger',
  inactive: 'muted',
};

/** Withdrawal, payment and account states as small coloured labels. */
export function StatusTag({ status }: { status: string }) {
  return <Tag tone={TONES[status.toLowerCase()] ?? 'muted'}>{humanise(status)}</Tag>;
}
