import { isSuccessStatus, type StatusTone, statusTone } from '@shared/status.ts';

export type StatusIconKind = 'check' | 'info';

export interface StatusLook {
  tone: StatusTone;
  /** docs/product.md#states: a check icon for success, an info icon for everything else. */
  icon: StatusIconKind;
  /** Text colour of the icon and label (AA on the dark cards). */
  textClass: string;
  /** Pill background and border. */
  pillClass: string;
  label: string;
}

const TONE_CLASSES: Record<StatusTone, { text: string; pill: string }> = {
  success: { text: 'text-vip', pill: 'border-vip/40 bg-vip/10' },
  danger: { text: 'text-danger', pill: 'border-danger/40 bg-danger/10' },
  warning: { text: 'text-wallet', pill: 'border-wallet/40 bg-wallet/10' },
};

/** 'successful' → 'Successful'; an empty status reads 'Pending'. */
export function statusLabel(status: string | null | undefined): string {
  const value = (status ?? '').trim().toLowerCase();
  if (value === '') return 'Pending';
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/**
 * docs/product.md#states for payments and withdrawals: success/successful green, failed/cancelled red,
 * anything else yellow (case-insensitive); check icon on success, info icon otherwise.
 */
export function statusLook(status: string | null | undefined): StatusLook {
  const tone = statusTone(status);
  return {
    tone,
    icon: isSuccessStatus(status) ? 'check' : 'info',
    textClass: TONE_CLASSES[tone].text,
    pillClass: TONE_CLASSES[tone].pill,
    label: statusLabel(status),
  };
}
