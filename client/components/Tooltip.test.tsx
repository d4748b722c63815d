// @vitest-environment jsdom
import { ActionIcon, Tooltip as MantineTooltip, type TooltipProps } from '@mantine/core';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage } from '../test/render';
import { lazyTooltip } from './Tooltip';

/** Every test's code arrives in the end. */
const arrivals: (() => void)[] = [];
afterEach(() => {
  for (const arrive of arrivals.splice(0)) arrive();
});

/** A tooltip whose code answers when told to. */
function deferredTooltip() {
  let resolve!: (component: ComponentType<TooltipProps>) => void;
  const code = new Promise<ComponentType<TooltipProps>>((yes) => {
    resolve = yes;
  });
  const arrive = async () => {
    resolve(MantineTooltip as ComponentType<TooltipProps>);
    await act(async () => {
      await code;
    });
  };
  arrivals.push(() => resolve(MantineTooltip as ComponentType<TooltipProps>));
  return { ...lazyTooltip(() => code), arrive };
}

function Edit({ Tooltip }: { Tooltip: ComponentType<TooltipProps> }) {
  return (
    <Tooltip label="Edit the customer" withinPortal={false} openDelay={0} transitionProps={{ duration: 0 }}>
      <ActionIcon aria-label="Edit the customer" data-testid="edit">
        ✎
      </ActionIcon>
    </Tooltip>
  );
}

describe('a tooltip whose code comes after the page', () => {
  it('draws its control alone meanwhile, then shows its label on hover once its code has come', async () => {
    const { Tooltip, preload, arrive } = deferredTooltip();
    renderPage(<Edit Tooltip={Tooltip} />);
    const control = screen.getByRole('button', { name: 'Edit the customer' });
    fireEvent.mouseEnter(control);
    expect(screen.queryByRole('tooltip')).toBeNull();

    void preload();
    await arrive();
    fireEvent.mouseEnter(screen.getByTestId('edit'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Edit the customer');
  });

  it('keeps its control, the focus on it, when its code comes; shows on focus, hides on Escape', async () => {
    const { Tooltip, preload, arrive } = deferredTooltip();
    renderPage(<Edit Tooltip={Tooltip} />);
    const before = screen.getByTestId('edit');
    act(() => before.focus());

    void preload();
    await arrive();
    // the same element: nothing drawn again, the focus where it was
    expect(screen.getByTestId('edit')).toBe(before);
    expect(document.activeElement).toBe(before);

    fireEvent.blur(before);
    fireEvent.focus(before);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Edit the customer');
    fireEvent.keyDown(before, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    fireEvent.mouseLeave(before);
    fireEvent.mouseEnter(before);
    expect(await screen.findByRole('tooltip')).toBeTruthy();
  });
});
