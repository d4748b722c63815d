// @vitest-environment jsdom
import { type ComponentType, startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createI18n } from '../i18n';
import { TranslatorProvider } from '../i18n/use-translation';
import { pageWithoutSuspense } from './page-without-suspense';

const SLOW_SIBLINGS = 40;

describe('pageWithoutSuspense', () => {
  let root: Root | null = null;
  const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;

  afterEach(() => {
    root?.unmount();
    root = null;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment;
  });

  it('shows the page when its preloaded code arrives after the loader rendered and before the effects ran', async () => {
    // React schedules as in a browser: the first render is a transition, rendered in slices.
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    let arrive!: () => void;
    const code = new Promise<{ Page: ComponentType }>((resolve) => {
      arrive = () => resolve({ Page: () => <h1>the page</h1> });
    });
    const { Page, loadOnce } = pageWithoutSuspense(() => code, 'Page');
    // preloaded at start, as routes.tsx's preloadPage does
    loadOnce().catch(() => {});

    let rendered = 0;
    let renderedWhenArrived = -1;
    function Slow() {
      const end = performance.now() + 3;
      while (performance.now() < end);
      rendered += 1;
      // the code arrives while React renders the page's slow siblings, after the page rendered its loader
      if (rendered === 1) {
        setTimeout(() => {
          renderedWhenArrived = rendered;
          arrive();
        }, 0);
      }
      return null;
    }

    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    startTransition(() =>
      root!.render(
        <TranslatorProvider translator={createI18n('en')}>
          <MantineProvider>
            <Page />
            {Array.from({ length: SLOW_SIBLINGS }, (_, index) => (
              <Slow key={index} />
            ))}
          </MantineProvider>
        </TranslatorProvider>,
      ),
    );

    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('the page'));
    // the case this is about: the code came in the middle of that first render
    expect(renderedWhenArrived).toBeGreaterThan(0);
    expect(renderedWhenArrived).toBeLessThan(SLOW_SIBLINGS);
  });

  it('throws a failure to fetch the code from the render', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    const { Page } = pageWithoutSuspense(
      () => Promise.reject<{ Page: ComponentType }>(new Error('chunk gone')),
      'Page',
    );
    const caught: unknown[] = [];
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container, {
      onCaughtError: (error) => caught.push(error),
      onUncaughtError: (error) => caught.push(error),
    });
    root.render(
      <TranslatorProvider translator={createI18n('en')}>
        <MantineProvider>
          <Page />
        </MantineProvider>
      </TranslatorProvider>,
    );
    await waitFor(() => expect(caught).toHaveLength(1));
    expect((caught[0] as Error).message).toBe('chunk gone');
  });
});
