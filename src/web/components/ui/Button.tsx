import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './Spinner.tsx';

export type ButtonVariant = 'primary' | 'vip' | 'wallet' | 'danger' | 'ghost' | 'outline';

export const buttonStyles: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-black hover:bg-accent/85',
  vip: 'bg-vip text-black hover:bg-vip/85',
  wallet: 'bg-wallet text-black hover:bg-wallet/85',
  danger: 'bg-danger text-black hover:bg-danger/85',
  ghost: 'bg-transparent text-white hover:bg-white/10',
  outline: 'border border-line bg-transparent text-white hover:border-accent hover:text-accent',
};

/*
 * Disabled (and not just busy) buttons lose their colour for a dashed outline: a faded cyan
 * still read as pressable. The text stays at AA contrast on the dark card;
 * whoever disables a button also says why beside it (aria-describedby). A busy button keeps
 * its colour, dimmed, with its spinner.
 */
export const buttonBase =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-5 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed aria-busy:opacity-70 disabled:not-aria-busy:border disabled:not-aria-busy:border-dashed disabled:not-aria-busy:border-white/35 disabled:not-aria-busy:bg-white/5 disabled:not-aria-busy:text-white/75';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  loading?: boolean;
  children: ReactNode;
}

export function Button({
  variant = 'primary',
  loading = false,
  disabled,
  className = '',
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={`${buttonBase} ${buttonStyles[variant]} ${className}`}
      {...rest}
    >
      {loading ? <Spinner label="Please wait" className="size-4" /> : null}
      {children}
    </button>
  );
}
