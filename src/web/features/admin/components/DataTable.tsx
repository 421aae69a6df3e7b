import { type ReactNode, useLayoutEffect, useRef } from 'react';

/** Header and cell classes shared by every console table. */
const th =
  'px-3 py-2.5 text-left text-xs font-semibold tracking-wider text-muted uppercase whitespace-nowrap';
const td = 'px-3 py-3 align-top text-sm';
const tdNumber = `${td} text-right tabular-nums whitespace-nowrap`;
const thNumber = `${th} text-right`;

/**
 * A table that scrolls sideways inside its card on narrow screens instead of widening the
 * page. The scrolling region is focusable and named so keyboard users can scroll it too. It is
 * positioned so visually hidden (absolute) captions and labels are clipped with the rest of the
 * table instead of widening the page.
 */
/**
 * `cards`: below `sm` every row is a card of two columns, each cell under its column's name
 * (copied from the header into `data-label`, shown by ::before); cells whose header is empty
 * span the card. No column is cut off behind a sideways scroll.
 */
const CARDS = [
  'max-sm:block max-sm:[&_thead]:sr-only',
  'max-sm:[&_tbody]:block',
  'max-sm:[&_tr]:grid max-sm:[&_tr]:grid-cols-2 max-sm:[&_tr]:gap-x-4 max-sm:[&_tr]:gap-y-3 max-sm:[&_tr]:p-4',
  'max-sm:[&_td]:block max-sm:[&_td]:w-auto max-sm:[&_td]:max-w-none max-sm:[&_td]:min-w-0 max-sm:[&_td]:p-0 max-sm:[&_td]:text-left max-sm:[&_td]:whitespace-normal max-sm:[&_td]:break-words',
  'max-sm:[&_td:not([data-label])]:col-span-2 max-sm:[&_td[data-wide]]:col-span-2',
  'max-sm:[&_td[data-label]]:before:mb-0.5 max-sm:[&_td[data-label]]:before:block max-sm:[&_td[data-label]]:before:text-xs max-sm:[&_td[data-label]]:before:font-normal max-sm:[&_td[data-label]]:before:text-muted max-sm:[&_td[data-label]]:before:content-[attr(data-label)]',
].join(' ');

function DataTable({
  label,
  children,
  minWidth,
  stacked = false,
  cards = false,
}: {
  /** Names the table (caption) and its scrolling region. */
  label: string;
  children: ReactNode;
  minWidth: string;
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
      (header.textContent ?? '').trim(),
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
  /** The header is read out but not shown (a column of row actions). */
  headerHidden?: boolean;
  /** Classes added to the header (a fixed width). */
  headerClassName?: string;
  /** Right-aligned tabular figures (amounts, counts). */
  numeric?: boolean;
  /** Classes added to the cells (the header keeps the column's look). */
  className?: string;
  /** On a phone card the cell spans both columns (long text). */
  wide?: boolean;
  cell: (row: T) => ReactNode;
}

/**
 * How rows show below `sm`: `cards` (each cell under its column's name), `scroll` (the table
 * scrolls sideways) or `{ row }`: the page lays its rows out itself, with `max-sm:` classes on
 * the row (`row`) and on the cells (the columns' `className`).
 */
export type PhoneLayout = 'cards' | 'scroll' | { row: string };

/** What a column-driven table shows, apart from its rows. */
export interface TableSpec<T> {
  label: string;
  /** The table's minimum width; an `sm:` one for cards, below which the rows are cards. */
  minWidth: string;
  columns: ReadonlyArray<Column<T>>;
  rowKey: (row: T, index: number) => string | number;
  /**
   * The line shown instead of an empty table; absent where the page shows its own empty state
   * before it ever renders the table.
   */
  empty?: string;
  /** Cards unless said otherwise. */
  phone?: PhoneLayout;
  /** Cells centred vertically rather than at the top (rows beside a full-size button). */
  alignMiddle?: boolean;
}

function classes(...names: Array<string | undefined>) {
  return names.filter(Boolean).join(' ');
}

/**
 * A console table from its column definitions: the header, one row per item (cards on a
 * phone, each cell under its column's name, unless the spec says otherwise), or the `empty`
 * line when there are none.
 */
export function ColumnTable<T>({ spec, rows }: { spec: TableSpec<T>; rows: ReadonlyArray<T> }) {
  const { label, minWidth, columns, rowKey, empty, phone = 'cards', alignMiddle = false } = spec;
  const cell = alignMiddle ? td.replace('align-top', 'align-middle') : td;
  const cellNumber = alignMiddle ? tdNumber.replace('align-top', 'align-middle') : tdNumber;
  if (rows.length === 0 && empty !== undefined) {
    return (
      <p className="rounded-2xl border border-line bg-card p-6 text-center text-sm text-muted">
        {empty}
      </p>
    );
  }
  const ownRows = typeof phone === 'object';
  return (
    <DataTable label={label} minWidth={minWidth} cards={phone === 'cards'} stacked={ownRows}>
      <thead className={ownRows ? 'max-sm:sr-only' : undefined}>
        <tr>
          {columns.map((column) => (
            <th
              key={column.header}
              scope="col"
              className={classes(column.numeric ? thNumber : th, column.headerClassName)}
            >
              {column.headerHidden ? (
                <span className="sr-only">{column.header}</span>
              ) : (
                column.header
              )}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={ownRows ? 'max-sm:block' : undefined}>
        {rows.map((row, index) => (
          <Row key={rowKey(row, index)} className={ownRows ? phone.row : undefined}>
            {columns.map((column) => (
              <td
                key={column.header}
                className={classes(column.numeric ? cellNumber : cell, column.className)}
                data-wide={column.wide ? true : undefined}
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
function Row({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <tr className={`border-t border-line hover:bg-white/[0.03] ${className}`}>{children}</tr>;
}
