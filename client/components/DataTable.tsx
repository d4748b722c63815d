import { Table, type TableProps } from '@mantine/core';

export interface DataTableProps extends TableProps {
  /** names the scrolling box for assistive technology, e.g. the page's title */
  label: string;
  /** below this width (px) the table scrolls sideways in its own box instead of squeezing its columns */
  minWidth?: number;
}

/**
 * Every list table of the portal: on a narrow screen the table scrolls inside its own box, so the
 * page itself never grows wider than the screen. The box is focusable and named, so a keyboard user
 * can scroll it too.
 */
export function DataTable({ label, minWidth = 640, children, ...table }: DataTableProps) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      type="native"
      tabIndex={0}
      role="region"
      aria-label={label}
      data-testid="table-scroller"
      // Holds absolutely placed content (visually hidden column names) inside the scrolling box;
      // otherwise it would stretch the page past the screen's edge.
      pos="relative"
    >
      <Table {...table}>{children}</Table>
    </Table.ScrollContainer>
  );
}
