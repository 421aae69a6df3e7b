import type { ReactNode } from 'react';

/** A titled block of a console page; the heading names the region for screen readers. */
export function Section({
  title,
  id,
  actions,
  children,
  className = '',
}: {
  title: string;
  id: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`flex flex-col gap-3 ${className}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-bold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A back link line above a detail page's title. */
export function BackLink({ children }: { children: ReactNode }) {
  return <div className="mb-3 text-sm">{children}</div>;
}
