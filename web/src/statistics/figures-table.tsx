/**
 * The statistics screens' tables of figures: a heading per column, each row named by its first cell. On a phone
 * each row becomes a card whose cells carry their column's name (the app's `table--cards` layout), so no table
 * scrolls sideways with nothing in it to focus. Its roles are said outright, as components/admin-table.tsx does:
 * a table laid out as blocks loses its implicit ones in Chromium.
 */
import type { ComponentChildren } from 'preact';

export interface FigureRow {
  key: string;
  heading: ComponentChildren;
  cells: ComponentChildren[];
}

export function FiguresTable({
  headings,
  rows,
  name,
  scrollLabel,
}: {
  headings: string[];
  rows: FigureRow[];
  name: string;
  /** Given, the table scrolls within a bounded height, in a region of this name that the keyboard can reach. */
  scrollLabel?: string;
}) {
  const table = (
    // biome-ignore lint/a11y/noRedundantRoles: the phone's block layout drops the implicit roles
    <table class="table table--cards figures" role="table" data-figures={name}>
      {/* biome-ignore lint/a11y/noRedundantRoles: as above */}
      <thead role="rowgroup">
        {/* biome-ignore lint/a11y/noRedundantRoles: as above */}
        <tr role="row">
          {headings.map((heading) => (
            // biome-ignore lint/a11y/noRedundantRoles: as above
            <th key={heading} scope="col" role="columnheader">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      {/* biome-ignore lint/a11y/noRedundantRoles: as above */}
      <tbody role="rowgroup">
        {rows.map((row) => (
          // biome-ignore lint/a11y/noRedundantRoles: as above
          <tr key={row.key} role="row" data-row={row.key}>
            {/* biome-ignore lint/a11y/noRedundantRoles: as above */}
            <th scope="row" role="rowheader">
              {row.heading}
            </th>
            {row.cells.map((cell, index) => (
              // biome-ignore lint/a11y/noRedundantRoles: as above
              <td key={headings[index + 1] ?? index} role="cell" data-label={headings[index + 1]}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (!scrollLabel) return <div class="table-wrap">{table}</div>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe's scrollable-region-focusable)
    <section class="table-wrap table-wrap--bounded" aria-label={scrollLabel} tabIndex={0}>
      {table}
    </section>
  );
}
