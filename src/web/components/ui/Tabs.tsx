import type { KeyboardEvent } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  /** How many items the tab's panel lists, shown beside its name. */
  count?: number;
}

/** Ids tying a tab to its panel (one tablist per page). */
export const tabId = (key: string) => `tab-${key}`;
export const panelId = (key: string) => `panel-${key}`;

/**
 * The one tab list: WAI-ARIA tabs with automatic activation: one tab stop, arrow keys move
 * between tabs (and wrap), Home and End jump to the ends. The page renders the chosen panel
 * (role tabpanel, id `panelId(key)`, labelled by `tabId(key)`).
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  className = 'grid-cols-3 sm:inline-grid',
}: {
  label: string;
  /** The list's layout: Home's three equal tabs by default. */
  className?: string;
  tabs: ReadonlyArray<TabItem<K>>;
  selected: K;
  onSelect: (key: K) => void;
}) {
  function onKeyDown(event: KeyboardEvent) {
    const last = tabs.length - 1;
    const index = tabs.findIndex((tab) => tab.key === selected);
    const next = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    const tab = next === undefined ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.key);
    document.getElementById(tabId(tab.key))?.focus();
  }

  return (
    <div
      role="tablist"
      aria-label={label}
      className={`grid gap-1 rounded-2xl border border-line bg-card p-1 ${className}`}
    >
      {tabs.map((tab) => {
        const active = tab.key === selected;
        return (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={tabId(tab.key)}
            aria-selected={active}
            aria-controls={panelId(tab.key)}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(tab.key)}
            onKeyDown={onKeyDown}
            className={`min-h-12 rounded-xl px-2 text-[13px] leading-tight font-semibold sm:px-5 sm:text-sm ${
              active ? 'bg-accent text-black' : 'text-white/75 hover:bg-white/5 hover:text-white'
            }`}
          >
            {tab.label}
            {tab.count === undefined ? null : (
              <span className="ml-2 rounded-full bg-black/20 px-1.5 text-xs tabular-nums">
                {tab.count}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
