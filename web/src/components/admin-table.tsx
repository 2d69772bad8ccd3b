/**
 * The admin screens' lists of rows: a table with one heading per column and a last, unlabelled column for
 * row actions; `AsyncAdminTable` is that table for a list loaded with `useAsync`, shown once it has arrived
 * (with the loading and error states of `<Async>` before). On a phone each row becomes a card whose cells
 * carry their column's name (issue 31 point 12: the tables scrolled sideways with the actions off screen).
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { t } from '../i18n';
import { Async, type AsyncState } from './async';

export function AdminTable({ columns, children }: { columns: string[]; children: ComponentChildren }) {
  const table = useRef<HTMLTableElement>(null);
  // Each cell names its column, for the phone's card layout (styles.css); the sections draw plain cells.
  // The roles are said outright: a table laid out as blocks there loses its implicit ones in Chromium.
  useLayoutEffect(() => {
    const element = table.current;
    if (!element) return;
    element.setAttribute('role', 'table');
    for (const group of [element.tHead, ...element.tBodies]) group?.setAttribute('role', 'rowgroup');
    for (const row of element.rows) {
      row.setAttribute('role', 'row');
      const header = row.parentElement === element.tHead;
      [...row.cells].forEach((cell, index) => {
        cell.setAttribute('role', header ? 'columnheader' : 'cell');
        const column = columns[index];
        if (header) return;
        if (column) cell.dataset.label = column;
        else delete cell.dataset.label;
      });
    }
  });
  return (
    <div class="table-wrap">
      <table ref={table} class="table table--cards">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
            <th>
              <span class="visually-hidden">{t('admin.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function AsyncAdminTable<T, Item>({
  state,
  items,
  columns,
  children,
}: {
  state: AsyncState<T>;
  /** The rows' items in what was loaded (a list, or a page's `data`). */
  items: (loaded: T) => Item[];
  columns: string[];
  /** One `<tr>` per item. */
  children: (item: Item) => ComponentChildren;
}) {
  return (
    <Async state={state}>
      {(loaded) => <AdminTable columns={columns}>{items(loaded).map((item) => children(item))}</AdminTable>}
    </Async>
  );
}
