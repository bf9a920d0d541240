import type { ReactNode } from 'react';

interface ConsoleTableProps {
  /** The table's caption: what its rows are (read by screen readers; shown when `showCaption`). */
  caption: string;
  showCaption?: boolean;
  testId?: string;
  /** The header row's cells (<th scope="col">…). */
  head: ReactNode;
  children: ReactNode;
}

/**
 * A table of records: a header row and a body, scrolling sideways inside its frame when wider than the
 * page (a phone), the frame then reachable by keyboard to scroll it.
 */
export function ConsoleTable({ caption, showCaption = false, testId, head, children }: ConsoleTableProps) {
  return (
    // Focusable: a region that scrolls must be reachable by keyboard to scroll it.
    <div className="console-table" role="region" aria-label={caption} tabIndex={0}>
      <table data-testid={testId}>
        <caption className={showCaption ? 'console-table__caption' : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
