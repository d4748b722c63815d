// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { notificationStore } from '../components/notify';
import { renderPage } from '../test/render';
import { NotificationCentre } from './NotificationCentre';

// Whatever ran before in this worker, the centre starts empty (setup.ts also clears after each test).
beforeEach(() => notificationStore.clear());

describe('NotificationCentre', () => {
  it('gives the empty popover something to hold the focus, and a way out of it', async () => {
    renderPage(<NotificationCentre />);
    const bell = screen.getByTestId('notification-centre');
    bell.focus();
    fireEvent.click(bell);
    expect(await screen.findByTestId('notification-centre-empty')).toBeTruthy();
    const close = screen.getByTestId('notification-centre-close');
    // The focus moves into the popover, onto a control that can hold it (not lost to the page).
    await waitFor(() => expect(document.activeElement).toBe(close));
    expect(close.getAttribute('aria-label')).toBe('Close');

    fireEvent.click(close);
    await waitFor(() => expect(screen.queryByTestId('notification-centre-empty')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(bell));
  });

  it('opens on the first enabled control when there is something unread', async () => {
    notificationStore.notify({ status: 'success', message: 'The user was created.' });
    renderPage(<NotificationCentre />);
    fireEvent.click(screen.getByTestId('notification-centre'));
    expect(await screen.findByText('The user was created.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('notification-centre-mark-read')));
  });
});
