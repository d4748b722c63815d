// @vitest-environment jsdom
import { focusManager } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NotificationItem } from '../../common/api/notifications';
import { formatDateTime } from '../../common/format';
import { notify } from '../components/notify';
import { apiError, type FakeAnswer, fakeApi, type FakeRequest } from '../test/fake-api';
import { renderPage } from '../test/render';
import { NotificationCentre } from './NotificationCentre';

/**
 * The notification centre against a fake of its two routes that behaves as the server does: the
 * caller's notifications newest first by page, with the unread count, and marking read by id or all.
 */
function notificationServer(initial: NotificationItem[], options: { unreadCapped?: boolean } = {}) {
  const items = initial.map((item) => ({ ...item }));
  const unread = () => items.filter((item) => item.status === 'unread').length;
  const api = fakeApi({
    'GET /api/notifications': ({ query }: FakeRequest): FakeAnswer => {
      const offset = Number(query.get('pageOffset') ?? 0);
      const length = Number(query.get('pageLength') ?? 10);
      return {
        status: 200,
        body: {
          data: items.slice(offset, offset + length),
          offset,
          total: items.length,
          totalCapped: false,
          unread: unread(),
          unreadCapped: options.unreadCapped ?? false,
        },
      };
    },
    'POST /api/notifications/read': ({ body }: FakeRequest): FakeAnswer => {
      const { ids, all } = body as { ids?: number[]; all?: true };
      for (const item of items) if (all || ids?.includes(item.id)) item.status = 'read';
      return { status: 200, body: { unread: unread(), unreadCapped: false } };
    },
  });
  return { ...api, items };
}

let nextId = 100;
/** A notification of a new version, unread unless told. */
function newVersion(semVer: string, props: Partial<NotificationItem> = {}): NotificationItem {
  nextId += 1;
  return {
    id: nextId,
    date: '2026-03-05T14:07:00.000Z',
    status: 'unread',
    messageKey: 'notification.newVersion',
    params: { productKey: 'graph-server', productName: 'Graph Server', semVer },
    link: null,
    ...props,
  };
}

const bell = () => screen.getByTestId('notification-centre');
const entries = () => screen.queryAllByTestId('notification-centre-item');

describe('NotificationCentre', () => {
  it('gives the empty popover something to hold the focus, and a way out of it', async () => {
    notificationServer([]);
    renderPage(<NotificationCentre />);
    bell().focus();
    fireEvent.click(bell());
    expect(await screen.findByTestId('notification-centre-empty')).toBeTruthy();
    const close = screen.getByTestId('notification-centre-close');
    // The focus moves into the popover, onto a control that can hold it (not lost to the page).
    await waitFor(() => expect(document.activeElement).toBe(close));
    expect(close.getAttribute('aria-label')).toBe('Close');
    expect(screen.getByTestId('notification-centre-mark-read').hasAttribute('disabled')).toBe(true);

    fireEvent.click(close);
    await waitFor(() => expect(screen.queryByTestId('notification-centre-empty')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(bell()));
  });

  it('counts the unread on the bell, and opens on the first enabled control when something is unread', async () => {
    notificationServer([newVersion('2.0.0'), newVersion('1.9.0'), newVersion('1.8.0', { status: 'read' })]);
    renderPage(<NotificationCentre />);
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (2 unread)'));
    expect(bell().parentElement?.textContent).toContain('2');
    fireEvent.click(bell());
    const [first] = await screen.findAllByTestId('notification-centre-item');
    expect(first.querySelector('p')?.textContent).toBe('Graph Server 2.0.0 is available. (Unread)');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('notification-centre-mark-read')));
  });

  it("renders each notification from its key and parameters in the reader's language, newest first", async () => {
    const expiring = newVersion('', {
      messageKey: 'notification.licenseExpiresSoon',
      params: { customerId: 3, customerName: 'Acme', productName: 'Graph Server', endDate: '2026-06-30' },
      link: '/accounts/3',
      status: 'read',
    });
    const download = newVersion('', {
      messageKey: 'notification.firstProductDownload',
      params: { customerId: 3, productName: 'Graph Server', semVer: '4.1.0', platform: 'osx' },
    });
    const unknown = newVersion('', { messageKey: 'notification.somethingNew', params: {} });
    const hostile = newVersion('', {
      messageKey: 'notification.emailError',
      params: { email: '{{customerName}} $t(app.name)', lng: 'en', customerName: '<b>Acme</b>' },
    });
    notificationServer([download, expiring, unknown, hostile]);
    renderPage(<NotificationCentre />, { path: '/fr' });
    fireEvent.click(bell());
    await screen.findAllByTestId('notification-centre-item');
    expect(entries().map((entry) => entry.querySelector('a, p')?.textContent)).toEqual([
      'Graph Server a été téléchargé pour la première fois : version 4.1.0 pour macOS. (Non lue)',
      'La licence de Graph Server pour Acme expire le 30 juin 2026.',
      'Une notification que cette version du portail ne sait pas afficher. (Non lue)',
      'Un e-mail à {{customerName}} $t(app.name) (<b>Acme</b>) n’a pas pu être remis. (Non lue)',
    ]);
    // the date per the spec's format for moments (DD MMM YYYY HH:mm, local time)
    const time = within(entries()[0]).getByText(formatDateTime(download.date, 'fr'));
    expect(time.getAttribute('dateTime')).toBe(download.date);
    // a link in the reader's locale where the notification names what it is about
    expect(within(entries()[1]).getByRole('link').getAttribute('href')).toBe('/fr/accounts/3');
    expect(within(entries()[2]).queryByRole('link')).toBeNull();
  });

  it('shows more, a page at a time, and moves the focus to the first one it brought', async () => {
    const all = Array.from({ length: 12 }, (_, i) => newVersion(`1.0.${12 - i}`, { status: 'read' }));
    const api = notificationServer(all);
    renderPage(<NotificationCentre />);
    fireEvent.click(bell());
    await screen.findAllByTestId('notification-centre-item');
    expect(entries()).toHaveLength(10);
    fireEvent.click(screen.getByTestId('notification-centre-more'));
    await waitFor(() => expect(entries()).toHaveLength(12));
    await waitFor(() => expect(document.activeElement).toBe(entries()[10]));
    expect(entries()[10].textContent).toContain('Graph Server 1.0.2 is available.');
    expect(screen.queryByTestId('notification-centre-more')).toBeNull();
    const offsets = api.calls('GET /api/notifications').map((r) => r.query.get('pageOffset'));
    expect(offsets).toContain('10');
  });

  it('marks one read, keeping the focus on it, and the bell counts one fewer', async () => {
    const first = newVersion('3.0.0');
    const api = notificationServer([first, newVersion('2.9.0')]);
    renderPage(<NotificationCentre />);
    fireEvent.click(bell());
    await screen.findAllByTestId('notification-centre-item');
    const [entry] = entries();
    fireEvent.click(within(entry).getByRole('button', { name: 'Mark read' }));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (1 unread)'));
    expect(api.calls('POST /api/notifications/read').map((r) => r.body)).toEqual([{ ids: [first.id] }]);
    expect(entries()[0].getAttribute('data-status')).toBe('read');
    expect(within(entries()[0]).queryByRole('button', { name: 'Mark read' })).toBeNull();
    expect(document.activeElement).toBe(entries()[0]);
  });

  it('marks an entry read when its link is followed, and closes the popover', async () => {
    const linked = newVersion('', {
      messageKey: 'notification.newProductLicense',
      params: { customerId: 3, customerName: 'Acme', productName: 'Graph Server' },
      link: '/accounts/3',
    });
    const api = notificationServer([linked]);
    renderPage(<NotificationCentre />);
    fireEvent.click(bell());
    fireEvent.click(await screen.findByRole('link', { name: 'Acme has a new licence: Graph Server. (Unread)' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/en/accounts/3');
    await waitFor(() =>
      expect(api.calls('POST /api/notifications/read').map((r) => r.body)).toEqual([{ ids: [linked.id] }]),
    );
    expect(api.items[0].status).toBe('read');
  });

  it('marks all read', async () => {
    const api = notificationServer([newVersion('3.0.0'), newVersion('2.0.0'), newVersion('1.0.0')]);
    renderPage(<NotificationCentre />);
    fireEvent.click(bell());
    await screen.findAllByTestId('notification-centre-item');
    fireEvent.click(screen.getByTestId('notification-centre-mark-read'));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications'));
    expect(api.calls('POST /api/notifications/read').map((r) => r.body)).toEqual([{ all: true }]);
    expect(entries().map((entry) => entry.getAttribute('data-status'))).toEqual(['read', 'read', 'read']);
    expect(screen.getByTestId('notification-centre-mark-read').hasAttribute('disabled')).toBe(true);
  });

  it('says when the list could not be loaded, and loads it again on demand', async () => {
    let fail = true;
    fakeApi({
      'GET /api/notifications': () =>
        fail
          ? apiError(500, 'internal_error', 'Internal error')
          : {
              status: 200,
              body: { data: [], offset: 0, total: 0, totalCapped: false, unread: 0, unreadCapped: false },
            },
    });
    renderPage(<NotificationCentre />);
    fireEvent.click(bell());
    const alert = await screen.findByTestId('notification-centre-error');
    expect(alert.textContent).toContain('Your notifications could not be loaded');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('notification-centre-empty')).toBeTruthy();
  });

  it('shows a loader while the list is on its way', async () => {
    fakeApi({ 'GET /api/notifications': () => new Promise<FakeAnswer>(() => {}) });
    renderPage(<NotificationCentre />);
    fireEvent.click(bell());
    expect(await screen.findByTestId('notification-centre-loader')).toBeTruthy();
    expect(screen.queryByTestId('notification-centre-empty')).toBeNull();
  });

  it('says "more than" on a count that reached its cap', async () => {
    // the fake counts the one it holds; the server would count up to its cap
    notificationServer([newVersion('1.0.0')], { unreadCapped: true });
    renderPage(<NotificationCentre />);
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications (more than 1 unread)'));
    expect(bell().parentElement?.textContent).toContain('99+');
  });

  it('asks again when the window gets the focus back', async () => {
    const api = notificationServer([]);
    renderPage(<NotificationCentre />);
    await waitFor(() => expect(api.calls('GET /api/notifications')).toHaveLength(1));
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await waitFor(() => expect(api.calls('GET /api/notifications')).toHaveLength(2));
    focusManager.setFocused(undefined);
  });

  it("lists this session's messages below, without counting them on the bell", async () => {
    notificationServer([]);
    notify({ status: 'success', message: 'The user was created.' });
    renderPage(<NotificationCentre />);
    fireEvent.click(bell());
    const session = await screen.findByTestId('toast-history');
    expect(within(session).getByText('Messages of this session')).toBeTruthy();
    expect(within(session).getByTestId('toast-history-item').textContent).toContain('The user was created.');
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('notification-centre-close')));
  });
});
