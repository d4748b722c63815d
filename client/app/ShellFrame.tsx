import { rem } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { HEADER_HEIGHT } from '../components/layout';

/**
 * Mantine's AppShell as the portal uses it (a fixed header over the page, no navbar, aside or
 * footer), without its code: AppShell brings its five sections, its resize handles, its media-query
 * styles and react-remove-scroll (for one class name) into the JavaScript every signed-in page waits
 * for (decision 092). The same elements, classes and variables as AppShell renders with
 * `header={{ height: HEADER_HEIGHT }}` and `padding={{ base: 'xs', sm: 'md' }}`, so Mantine's own
 * sheet (AppShell.css) lays them out as before; ShellFrame.test.tsx compares both renders.
 */
const CLASSES = {
  root: 'm_89ab340 mantine-AppShell-root',
  // react-remove-scroll's `zeroRight`: a modal that locks the page's scroll keeps the header in place
  header: 'm_3b16f56b mantine-AppShell-header right-scroll-bar-position',
  main: 'm_8983817 mantine-AppShell-main',
};

/** Mantine's z-index for the app's own layers (getDefaultZIndex('app')). */
const APP_Z_INDEX = 100;

const ROOT_VARIABLES = {
  '--app-shell-transition-duration': '200ms',
  '--app-shell-transition-timing-function': 'ease',
} as CSSProperties;

/**
 * AppShellMediaStyles' variables, on :root as AppShell puts them (a portal's drawer may read them):
 * the header's height and offset, and the page's padding, `xs` on a phone and `md` from `sm` up.
 */
const MEDIA_STYLES =
  `:root{--app-shell-header-height:${rem(HEADER_HEIGHT)};--app-shell-header-offset:${rem(HEADER_HEIGHT)};` +
  `--app-shell-padding:var(--mantine-spacing-xs);}` +
  `@media(min-width: 48em){:root{--app-shell-padding:var(--mantine-spacing-md);}}`;

export function ShellFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <style data-mantine-styles="inline">{MEDIA_STYLES}</style>
      <div className={CLASSES.root} style={ROOT_VARIABLES} data-mode="fixed">
        {children}
      </div>
    </>
  );
}

export function ShellHeader({ children }: { children: ReactNode }) {
  return (
    <header
      className={CLASSES.header}
      style={{ '--app-shell-header-z-index': String(APP_Z_INDEX) } as CSSProperties}
      data-with-border="true"
    >
      {children}
    </header>
  );
}

export function ShellMain({ id, children }: { id: string; children: ReactNode }) {
  return (
    <main className={CLASSES.main} id={id} tabIndex={-1} style={{ outline: 'none' }}>
      {children}
    </main>
  );
}
