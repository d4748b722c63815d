// Mantine's Tooltip alone, for the portal's Tooltip to fetch once the page has painted (Tooltip.tsx).
export { Tooltip } from '@mantine/core';
