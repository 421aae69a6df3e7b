import { panelId, Tabs, tabId } from '@web/components/ui/Tabs.tsx';
import { type ReactNode, useState } from 'react';

export interface Section {
  key: string;
  label: string;
  count?: number;
  content: ReactNode;
}

/**
 * A console page's sections behind the shared tabs; only the chosen one renders. On a phone
 * the tabs sit in two columns, so none is hidden off-screen.
 */
export function TabbedSections({ label, items }: { label: string; items: Section[] }) {
  const [selected, setSelected] = useState(items[0]?.key ?? '');
  const current = items.find((item) => item.key === selected) ?? items[0];
  return (
    <div className="flex flex-col gap-3">
      <Tabs
        label={label}
        tabs={items}
        selected={current?.key ?? ''}
        onSelect={setSelected}
        className="grid-cols-2 sm:flex sm:overflow-x-auto sm:[&>*]:shrink-0"
      />
      {current ? (
        <div role="tabpanel" id={panelId(current.key)} aria-labelledby={tabId(current.key)}>
          {current.content}
        </div>
      ) : null}
    </div>
  );
}
