import { type ReactNode, useLayoutEffect, useRef } from 'react';

/** Header and cell classes shared by every console table. */
export const th =
  'px-3 py-2.5 text-left text-xs font-semibold tracking-wider text-muted uppercase whitespace-nowrap';
export const td = 'px-3 py-3 align-top text-sm';
export const tdNumber = `${td} text-right tabular-nums whitespace-nowrap`;
export const thNumber = `${th} text-right`;

/**
 * A table that scrolls sideways inside its card on narrow screens instead of widening the
 * page. The scrolling region is focusable and named so keyboard users can scroll it too. It is
 * positioned so visually hidden (absolute) captions and labels are clipped with the rest of the
 * table instead of widening the page.
 */
/**
 * `cards`: below `sm` every row is a card of two columns, each cell under its column's name
 * (copied from the header into `data-label`, shown by ::before); cells whose header is empty or
 * marked `data-no-label` (actions) span the card. No column is cut off behind a sideways scroll.
 */
const CARDS = [
  'max-sm:block max-sm:[&_thead]:sr-only',
  'max-sm:[&_tbody]:block',
  'max-sm:[&_tr]:grid max-sm:[&_tr]:grid-cols-2 max-sm:[&_tr]:gap-x-4 max-sm:[&_tr]:gap-y-3 max-sm:[&_tr]:p-4',
  'max-sm:[&_td]:block max-sm:[&_td]:w-auto max-sm:[&_td]:max-w-none max-sm:[&_td]:min-w-0 max-sm:[&_td]:p-0 max-sm:[&_td]:text-left max-sm:[&_td]:whitespace-normal max-sm:[&_td]:break-words',
  'max-sm:[&_td:not([data-label])]:col-span-2 max-sm:[&_td[data-wide]]:col-span-2',
  'max-sm:[&_td[data-label]]:before:mb-0.5 max-sm:[&_td[data-label]]:before:block max-sm:[&_td[data-label]]:before:text-xs max-sm:[&_td[data-label]]:before:font-normal max-sm:[&_td[data-label]]:before:text-muted max-sm:[&_td[data-label]]:before:content-[attr(data-label)]',
].join(' ');

export function DataTable({
  label,
  children,
  minWidth = 'min-w-[40rem]',
  stacked = false,
  cards = false,
}: {
  /** Names the table (caption) and its scrolling region. */
  label: string;
  children: ReactNode;
  minWidth?: string;
  /**
   * Below the `sm` breakpoint the rows become cards (the page styles its rows and cells with
   * `max-sm:` classes, and gives a `sm:` minimum width) instead of a table to scroll sideways.
   */
  stacked?: boolean;
  /**
   * Below `sm` the rows become cards with each cell under its column's name, with no styling
   * needed on the page (give it an `sm:` minimum width; `data-wide` on a long cell spans it).
   */
  cards?: boolean;
}) {
  const tableRef = useRef<HTMLTableElement>(null);
  // After every render: rows come and go with pages and filters; the header stays the one
  // place each column is named.
  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!cards || !table) return;
    const names = [...table.querySelectorAll('thead th')].map((header) =>
      header.hasAttribute('data-no-label') ? '' : (header.textContent ?? '').trim(),
    );
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, index) => {
        const name = names[index];
        if (name) cell.setAttribute('data-label', name);
        else cell.removeAttribute('data-label');
      });
    }
  });
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
      tabIndex={0}
      className="relative overflow-x-auto rounded-2xl border border-line bg-card focus-visible:outline-accent"
    >
      <table
        ref={tableRef}
        className={`w-full border-collapse ${stacked ? 'max-sm:block' : ''} ${cards ? CARDS : ''} ${minWidth}`}
      >
        <caption className="sr-only">{label}</caption>
        {children}
      </table>
    </section>
  );
}

/** One column of a table: its header and what each row shows in it. */
export interface Column<T> {
  header: string;
  /** Right-aligned tabular figures (amounts, counts). */
  numeric?: boolean;
  /** Classes added to the cells (the header keeps the column's look). */
  className?: string;
  cell: (row: T) => ReactNode;
}

/** What a column-driven table shows, apart from its rows. */
export interface TableSpec<T> {
  label: string;
  /** An `sm:` minimum width: below it the rows are cards. */
  minWidth: string;
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T) => string | number;
  /** The line shown instead of an empty table. */
  empty: string;
}

/**
 * A console table from its column definitions: the header, one row per item (cards on a
 * phone, each cell under its column's name), or the `empty` line when there are none.
 */
export function ColumnTable<T>({ spec, rows }: { spec: TableSpec<T>; rows: ReadonlyArray<T> }) {
  const { label, minWidth, columns, rowKey, empty } = spec;
  if (rows.length === 0) {
    return (
      <p className="rounded-2xl border border-line bg-card p-6 text-center text-sm text-muted">
        {empty}
      </p>
    );
  }
  return (
    <DataTable label={label} minWidth={minWidth} cards>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={column.numeric ? thNumber : th}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <Row key={rowKey(row)}>
            {columns.map((column) => (
              <td
                key={column.header}
                className={`${column.numeric ? tdNumber : td} ${column.className ?? ''}`}
              >
                {column.cell(row)}
              </td>
            ))}
          </Row>
        ))}
      </tbody>
    </DataTable>
  );
}

/** A table body row with the console's divider and hover. */
export function Row({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <tr className={`border-t border-line hover:bg-white/[0.03] ${className}`}>{children}</tr>;
}
