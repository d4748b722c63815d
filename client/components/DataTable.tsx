import { Box, Table, type TableProps } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { useSmallScreen } from './layout';
import './DataTable.css';

interface DataTableProps extends TableProps {
  /** names the table's box for assistive technology, e.g. the page's title */
  label: string;
  /** on a wide screen, below this width (px) the table scrolls sideways in its own box instead of squeezing its columns */
  minWidth?: number;
}

/**
 * Gives every body cell the name of its column (`data-label`), which the cards of a phone show
 * beside the value. Read from the header row, so no table has to repeat its column names; column
 * spans are counted.
 */
function labelCells(table: HTMLTableElement): void {
  const headerRow = table.tHead?.rows[0];
  if (!headerRow) return;
  const names: string[] = [];
  for (const th of Array.from(headerRow.cells)) {
    const name = (th.textContent ?? '').trim();
    for (let span = 0; span < Math.max(1, th.colSpan); span++) names.push(name);
  }
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        const name = names[column] ?? '';
        if (cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
        column += Math.max(1, cell.colSpan);
      }
    }
  }
}

/**
 * Every list table of the portal (decision 021). On a wide screen the table scrolls inside its own
 * box below `minWidth`, so the page itself never grows wider than the screen; the box is focusable
 * and named, so a keyboard user can scroll it too. On a phone each row is a card instead: every cell
 * on a line of its own under its column's name, actions included, and nothing scrolls sideways
 * (DataTable.css).
 */
export function DataTable({ label, minWidth = 640, children, className, ...table }: DataTableProps) {
  const small = useSmallScreen();
  const ref = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    labelCells(element);
    // Rows come and go with pages and searches, and the column names change with the language.
    const observer = new MutationObserver(() => labelCells(element));
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [small]);

  const rendered = (
    <Table
      ref={ref}
      className={[className, small ? 'data-table-cards' : undefined].filter(Boolean).join(' ')}
      {...table}
    >
      {children}
    </Table>
  );
  if (small) {
    return (
      <Box role="region" aria-label={label} data-testid="table-scroller" data-layout="cards">
        {rendered}
      </Box>
    );
  }
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      type="native"
      tabIndex={0}
      role="region"
      aria-label={label}
      data-testid="table-scroller"
      data-layout="table"
      // Holds absolutely placed content (visually hidden column names) inside the scrolling box;
      // otherwise it would stretch the page past the screen's edge.
      pos="relative"
    >
      {rendered}
    </Table.ScrollContainer>
  );
}
