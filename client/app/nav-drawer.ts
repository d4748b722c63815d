/** Mantine's Drawer on its own: the top bar's menu on a narrow screen, fetched when first opened (decision 092). */
export { Drawer } from '@mantine/core';
