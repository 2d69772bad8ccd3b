/** The admin screens' list of rows: a scrollable table with one heading per column and a last, unlabelled column for row actions. */
import type { ComponentChildren } from 'preact';
import { t } from '../i18n';

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
