/** Mantine's Modal on its own, fetched when a dialog first opens (lazy-dialog.tsx, decision 092). */
export { Modal } from '@mantine/core';
