/**
 * The admin screens' lists of rows: a scrollable table with one heading per column and a last, unlabelled
 * column for row actions; `AsyncAdminTable` is that table for a list loaded with `useAsync`, shown once
 * it has arrived (with the loading and error states of `<Async>` before).
 */
import type { ComponentChildren } from 'preact';
import { t } from '../i18n';
import { Async, type AsyncState } from './async';

export function AdminTable({ columns, children }: { columns: string[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table class="table">
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
