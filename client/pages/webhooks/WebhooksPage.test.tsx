// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '../../../common/api/webhooks';
import { toastHistory } from '../../components/notify';
import { apiError, fakeApi } from '../../test/fake-api';
import { CurrentLocation, renderPage } from '../../test/render';
import { WebhooksPage } from './WebhooksPage';

const SECRET = `whsec_${'S'.repeat(43)}`;

let endpoints: WebhookEndpoint[];
const endpoint = (id: number, url: string, props: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  url,
  events: ['customer.created', 'licence.created'],
  enabled: true,
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
  ...props,
});
const delivery = (id: number, props: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  eventId: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  eventType: 'customer.created',
  status: 'succeeded',
  attempts: 1,
  responseStatus: 200,
  responseMs: 42,
  lastError: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  deliveredAt: '2026-11-26T10:00:01.000Z',
  ...props,
});
/** 12 deliveries of endpoint 1, newest first: two pages. */
const deliveries = Array.from({ length: 12 }, (_, i) =>
  delivery(
    12 - i,
    i === 0 ? { status: 'failed', attempts: 13, responseStatus: 500, lastError: 'the endpoint answered 500' } : {},
  ),
);

/** The server's refusal of a URL whose host is an address no delivery may reach (url-address.test.ts). */
const addressRefusal = (kind: string, address: string, message: string) =>
  apiError(400, 'validation_error', `url: ${message}`, [
    { path: 'url', message: `webhooks.errors.address.${kind}`, values: { address } },
  ]);
const LINK_LOCAL = addressRefusal(
  'linkLocal',
  '169.254.169.254',
  '169.254.169.254 is a link-local address, where cloud metadata services answer: deliveries never go there.',
);
const PRIVATE = addressRefusal(
  'private',
  '10.0.0.5',
  '10.0.0.5 is a private or loopback address, which this portal does not deliver to (WEBHOOKS_ALLOW_PRIVATE is off).',
);
const refusalOf = (url: string) =>
  url.includes('169.254.169.254') ? LINK_LOCAL : url.includes('10.0.0.5') ? PRIVATE : null;

function open(path = '/en/webhooks') {
  const api = fakeApi({
    'GET /api/webhooks': () => ({ status: 200, body: { data: endpoints } }),
    'POST /api/webhooks': (request) => {
      const body = request.body as { url: string; events: WebhookEndpoint['events'] };
      const refused = refusalOf(body.url);
      if (refused) return refused;
      const created = endpoint(3, body.url, { events: body.events });
      endpoints = [...endpoints, created];
      return { status: 201, body: { ...created, secret: SECRET } };
    },
    'PATCH /api/webhooks/1': (request) => {
      const refused = refusalOf((request.body as { url?: string }).url ?? '');
      if (refused) return refused;
      endpoints = endpoints.map((e) => (e.id === 1 ? { ...e, ...(request.body as object) } : e));
      return { status: 200, body: endpoints[0] };
    },
    'DELETE /api/webhooks/2': () => {
      endpoints = endpoints.filter((e) => e.id !== 2);
      return { status: 200, body: { ok: true } };
    },
    'GET /api/webhooks/1/deliveries': (request) => {
      const offset = Number(request.query.get('pageOffset') ?? 0);
      return {
        status: 200,
        body: { data: deliveries.slice(offset, offset + 10), offset, total: deliveries.length, totalCapped: false },
      };
    },
    'POST /api/webhooks/1/deliveries/12/resend': () => ({
      status: 202,
      body: { ...deliveries[0], status: 'pending' },
    }),
  });
  renderPage(
    <>
      <WebhooksPage />
      <CurrentLocation />
    </>,
    { path, route: '/:locale/webhooks' },
  );
  return api;
}
const search = () => screen.getByTestId('location').getAttribute('data-search');

beforeEach(() => {
  endpoints = [
    endpoint(1, 'https://crm.example.com/hooks/portal'),
    endpoint(2, 'https://old.example.com/hook', { enabled: false, events: ['newVersion'] }),
  ];
  toastHistory.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('WebhooksPage', () => {
  it('lists the endpoints with their events and state', async () => {
    open();
    const rows = await screen.findAllByTestId('webhook-row');
    expect(document.title).toBe('Webhooks · Graph Portal');
    expect(
      rows.map((row) =>
        Array.from(row.querySelectorAll('td'))
          .slice(0, 3)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['https://crm.example.com/hooks/portal', '2 events', 'Enabled'],
      ['https://old.example.com/hook', '1 event', 'Disabled'],
    ]);
    expect(
      within(rows[1]).getByRole('button', { name: 'Enable the endpoint https://old.example.com/hook' }),
    ).toBeTruthy();
  });

  it('says when there is no endpoint yet', async () => {
    endpoints = [];
    open();
    const empty = await screen.findByTestId('webhooks-empty');
    expect(empty.textContent).toBe('No endpoint yet.');
    expect(empty.getAttribute('role')).toBe('status');
  });

  it('shows why the list could not be loaded, with a retry', async () => {
    fakeApi({ 'GET /api/webhooks': () => apiError(503, 'unavailable', 'Down for maintenance') });
    renderPage(<WebhooksPage />, { path: '/en/webhooks', route: '/:locale/webhooks' });
    const alert = await screen.findByTestId('webhooks-error');
    expect(alert.textContent).toContain('The endpoints could not be loaded');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('checks the form before sending: a URL, an http(s) one without credentials, and one event at least', async () => {
    const api = open();
    await screen.findAllByTestId('webhook-row');
    fireEvent.click(screen.getByTestId('webhook-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a webhook endpoint' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy();
    expect(within(dialog).getByText('Choose at least one event.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^URL/), { target: { value: 'https://me:pw@hooks.example.com/x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('The address must not contain a user name or password.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^URL/), { target: { value: 'ftp://hooks.example.com/x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Enter an address that starts with http:// or https://.')).toBeTruthy();
    expect(api.calls('POST /api/webhooks')).toHaveLength(0);
  });

  it("shows the server's reason under the URL when its address is one no delivery may reach", async () => {
    const api = open();
    await screen.findAllByTestId('webhook-row');
    fireEvent.click(screen.getByTestId('webhook-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a webhook endpoint' });
    const url = within(dialog).getByLabelText(/^URL/);
    fireEvent.change(url, { target: { value: 'http://169.254.169.254/latest/meta-data/' } });
    fireEvent.click(within(dialog).getByLabelText('A licence expired'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    const reason =
      '169.254.169.254 is a link-local address, where cloud metadata services answer: deliveries never go there.';
    expect(await within(dialog).findByText(reason)).toBeTruthy();
    expect(api.calls('POST /api/webhooks')).toHaveLength(1);
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(url);
    // the dialog stays open, nothing was added
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
    expect(screen.getAllByTestId('webhook-row')).toHaveLength(2);
  });

  it('shows the reason in French on edit, for a private address the portal does not deliver to', async () => {
    open('/fr/webhooks');
    const rows = await screen.findAllByTestId('webhook-row');
    fireEvent.click(
      within(rows[0]).getByRole('button', { name: 'Modifier l’adresse https://crm.example.com/hooks/portal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: /./ });
    fireEvent.change(within(dialog).getByLabelText(/^URL/), { target: { value: 'http://10.0.0.5/hook' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(
      await within(dialog).findByText(
        '10.0.0.5 est une adresse privée ou de bouclage, où ce portail n’envoie rien (WEBHOOKS_ALLOW_PRIVATE est désactivé).',
      ),
    ).toBeTruthy();
  });

  it('adds an endpoint and shows its secret once, with a copy button and a warning', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const api = open();
    await screen.findAllByTestId('webhook-row');
    fireEvent.click(screen.getByTestId('webhook-add'));
    const dialog = await screen.findByRole('dialog', { name: 'Add a webhook endpoint' });
    fireEvent.change(within(dialog).getByLabelText(/^URL/), { target: { value: ' https://erp.example.com/in ' } });
    fireEvent.click(within(dialog).getByLabelText('version.published: a version was published'));
    fireEvent.click(within(dialog).getByLabelText('A licence expired'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect((await screen.findByTestId('webhook-secret')).textContent).toBe(SECRET);
    expect(api.calls('POST /api/webhooks')[0].body).toEqual({
      url: 'https://erp.example.com/in',
      events: ['version.published', 'licenseExpired'],
    });
    const secretDialog = screen.getByRole('dialog', { name: "Your endpoint's signing secret" });
    expect(secretDialog.textContent).toContain('This is the only time the signing secret is shown.');
    fireEvent.click(within(secretDialog).getByRole('button', { name: 'Copy the secret' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    fireEvent.click(within(secretDialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    await waitFor(() => expect(screen.getAllByTestId('webhook-row')).toHaveLength(3));
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('edits an endpoint, with its events checked', async () => {
    const api = open();
    const rows = await screen.findAllByTestId('webhook-row');
    fireEvent.click(
      within(rows[0]).getByRole('button', { name: 'Edit the endpoint https://crm.example.com/hooks/portal' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit the webhook endpoint' });
    const created = within(dialog).getByLabelText('customer.created: a customer was created') as HTMLInputElement;
    expect(created.checked).toBe(true);
    fireEvent.click(created);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PATCH /api/webhooks/1')).toHaveLength(1));
    expect(api.calls('PATCH /api/webhooks/1')[0].body).toEqual({
      url: 'https://crm.example.com/hooks/portal',
      events: ['licence.created'],
    });
  });

  it('disables an endpoint, and deletes one after a confirmation', async () => {
    const api = open();
    const rows = await screen.findAllByTestId('webhook-row');
    fireEvent.click(
      within(rows[0]).getByRole('button', { name: 'Disable the endpoint https://crm.example.com/hooks/portal' }),
    );
    await waitFor(() => expect(api.calls('PATCH /api/webhooks/1')[0]?.body).toEqual({ enabled: false }));
    await waitFor(() => expect(toastHistory.getSnapshot()[0]).toMatchObject({ message: 'The endpoint was disabled.' }));

    fireEvent.click(within(rows[1]).getByRole('button', { name: 'Delete the endpoint https://old.example.com/hook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the webhook endpoint' });
    expect(api.calls('DELETE /api/webhooks/2')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.calls('DELETE /api/webhooks/2')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('webhook-row')).toHaveLength(1));
  });

  it("shows an endpoint's deliveries, paged in the address, and resends one", async () => {
    const api = open();
    const rows = await screen.findAllByTestId('webhook-row');
    fireEvent.click(
      within(rows[0]).getByRole('button', { name: 'Show the deliveries to https://crm.example.com/hooks/portal' }),
    );
    const section = await screen.findByTestId('webhook-deliveries');
    expect(search()).toBe('?endpoint=1');
    expect(
      within(section).getByRole('heading', { name: 'Deliveries to https://crm.example.com/hooks/portal' }),
    ).toBeTruthy();
    const first = (await within(section).findAllByTestId('webhook-delivery-row'))[0];
    expect(first.textContent).toContain('Failed');
    expect(first.textContent).toContain('13 attempts');
    expect(first.textContent).toContain('500');
    expect(first.textContent).toContain('the endpoint answered 500');
    expect(first.textContent).toContain('42 ms');

    fireEvent.click(within(section).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(search()).toBe('?endpoint=1&page=2'));
    await waitFor(() => expect(within(section).getAllByTestId('webhook-delivery-row')).toHaveLength(2));
    expect(api.calls('GET /api/webhooks/1/deliveries').map((r) => r.query.get('pageOffset'))).toEqual(['0', '10']);

    fireEvent.click(within(section).getByRole('button', { name: 'Previous page' }));
    const resend = (await within(section).findAllByTestId('webhook-delivery-resend'))[0];
    fireEvent.click(resend);
    await waitFor(() => expect(api.calls('POST /api/webhooks/1/deliveries/12/resend')).toHaveLength(1));
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({ message: 'The delivery was queued again.' }),
    );

    fireEvent.click(within(section).getByRole('button', { name: 'All endpoints' }));
    await waitFor(() => expect(screen.queryByTestId('webhook-deliveries')).toBeNull());
    expect(search()).toBe('');
  });

  it('opens at the deliveries page the address names, in French', async () => {
    const api = open('/fr/webhooks?endpoint=1&page=2');
    const section = await screen.findByTestId('webhook-deliveries');
    await waitFor(() => expect(within(section).getAllByTestId('webhook-delivery-row')).toHaveLength(2));
    expect(api.calls('GET /api/webhooks/1/deliveries').map((r) => r.query.get('pageOffset'))).toEqual(['10']);
    expect(within(section).getByRole('heading').textContent).toBe('Envois à https://crm.example.com/hooks/portal');
    expect(within(section).getAllByTestId('webhook-delivery-status')[0].textContent).toBe('Remis');
  });
});
