import type { ReactNode } from 'react';

export function EmptyState({
  icon,
  title,
  children,
}: {
  icon: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="relative mx-auto flex w-full max-w-2xl flex-col items-center gap-3 overflow-hidden rounded-3xl border border-line bg-card px-6 py-12 text-center sm:py-16">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-24 left-1/2 size-64 -translate-x-1/2 rounded-full bg-accent/10 blur-3xl"
      />
      <span
        aria-hidden="true"
        className="relative grid size-16 place-items-center rounded-2xl border border-accent/30 bg-page text-3xl"
      >
        {icon}
      </span>
      <p className="relative text-xl font-bold">{title}</p>
      {children ? <div className="relative max-w-sm text-sm text-muted">{children}</div> : null}
    </div>
  );
}
