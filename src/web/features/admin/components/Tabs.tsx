import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';

export interface TabItem {
  key: string;
  label: string;
  count?: number;
  content: ReactNode;
}

/**
 * WAI-ARIA tabs: arrow keys, Home and End move between tabs; only the chosen panel renders. On
 * a phone the tabs sit in two columns, so none is hidden off-screen.
 */
export function Tabs({ label, items }: { label: string; items: TabItem[] }) {
  const [selected, setSelected] = useState(items[0]?.key ?? '');
  const baseId = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const current = items.find((item) => item.key === selected) ?? items[0];

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = items.findIndex((item) => item.key === selected);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: items.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = items[(target + items.length) % items.length];
    if (!next) return;
    setSelected(next.key);
    refs.current[next.key]?.focus();
  }

  return (
    <div className="flex flex-col gap-3">
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="relative flex gap-1 overflow-x-auto rounded-2xl border border-line bg-card p-1 max-sm:grid max-sm:grid-cols-2"
      >
        {items.map((item) => {
          const active = item.key === current?.key;
          return (
            <button
              key={item.key}
              ref={(element) => {
                refs.current[item.key] = element;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item.key}`}
              aria-selected={active}
              aria-controls={`${baseId}-panel-${item.key}`}
              tabIndex={active ? 0 : -1}
              onClick={() => setSelected(item.key)}
              className="flex min-h-11 shrink-0 items-center gap-2 rounded-xl px-4 max-sm:justify-center text-sm font-semibold whitespace-nowrap text-white/75 hover:text-white aria-selected:bg-accent aria-selected:text-black"
            >
              {item.label}
              {item.count !== undefined ? (
                <span className="rounded-full bg-black/20 px-1.5 text-xs tabular-nums">
                  {item.count}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      {current ? (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${current.key}`}
          aria-labelledby={`${baseId}-tab-${current.key}`}
        >
          {current.content}
        </div>
      ) : null}
    </div>
  );
}
