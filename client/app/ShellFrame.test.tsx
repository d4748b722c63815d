// @vitest-environment jsdom
import { AppShell, MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEADER_HEIGHT } from '../components/layout';
import { ShellFrame, ShellHeader, ShellMain } from './ShellFrame';

/** An element's name, classes and attributes (ids aside, which Mantine generates), and its children's. */
function outline(element: Element): unknown {
  const attributes = Object.fromEntries(
    [...element.attributes]
      .filter((attribute) => attribute.name !== 'id' || !attribute.value.startsWith('mantine-'))
      .map((attribute) => [attribute.name, attribute.value]),
  );
  return { tag: element.tagName, attributes, children: [...element.children].map(outline) };
}

function shellOf(container: HTMLElement): Element {
  const root = container.querySelector('.mantine-AppShell-root');
  if (!root) throw new Error('no shell');
  return root;
}

/** The CSS text of the inline style elements Mantine's AppShell adds for its variables, and ours. */
function variables(container: HTMLElement): string[] {
  return [...container.querySelectorAll('style[data-mantine-styles="inline"]')].map((style) => style.textContent ?? '');
}

describe('ShellFrame', () => {
  it('renders what Mantine’s AppShell renders for the portal’s header and padding, so AppShell.css lays it out the same', () => {
    const mantine = render(
      <MantineProvider>
        <AppShell header={{ height: HEADER_HEIGHT }} padding={{ base: 'xs', sm: 'md' }}>
          <a href="#main">skip</a>
          <AppShell.Header>bar</AppShell.Header>
          <AppShell.Main id="main" tabIndex={-1} style={{ outline: 'none' }}>
            page
          </AppShell.Main>
        </AppShell>
      </MantineProvider>,
    );
    const expected = outline(shellOf(mantine.container));
    const expectedVariables = variables(mantine.container);
    mantine.unmount();

    const ours = render(
      <MantineProvider>
        <ShellFrame>
          <a href="#main">skip</a>
          <ShellHeader>bar</ShellHeader>
          <ShellMain id="main">page</ShellMain>
        </ShellFrame>
      </MantineProvider>,
    );
    const actual = outline(shellOf(ours.container)) as { attributes: Record<string, string> };
    // AppShell marks its first render `data-resizing` (no transition meanwhile); the portal's fixed
    // header has no transition to suppress.
    const mantineRoot = expected as { attributes: Record<string, string> };
    delete mantineRoot.attributes['data-resizing'];
    expect(actual).toEqual(expected);
    expect(variables(ours.container)).toEqual(expectedVariables);
    expect(ours.getByRole('banner').textContent).toBe('bar');
    expect(ours.getByRole('main').textContent).toBe('page');
  });
});
