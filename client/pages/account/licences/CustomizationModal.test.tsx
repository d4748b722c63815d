// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Customization } from '../../../../common/api/customizations';
import { toastHistory } from '../../../components/notify';
import { customizationCan } from '../../../test/abilities';
import { apiError, type FakeHandler, fakeApi } from '../../../test/fake-api';
import { renderPage } from '../../../test/render';
import { CustomizationModal, type CustomizedLicence } from './CustomizationModal';

const licence = (customizationId: number | null): CustomizedLicence => ({
  customerId: 7,
  productKey: 'lke',
  productName: 'Graph Server',
  customizationId,
});

const customization = (props: Partial<Customization> = {}): Customization => ({
  id: 5,
  customerId: 7,
  customerName: 'Acme Analytics',
  productKey: 'lke',
  productName: 'Graph Server',
  customizationType: 'lke',
  versionType: 'beta',
  customConfig: { branding: { applicationName: 'Acme Graph' } },
  enabled: true,
  updatedAt: '2026-11-20T10:00:00.000Z',
  // as the server answers it to an account executive, who manages the customer's licences
  can: customizationCan('accountExecutive'),
  ...props,
});

function open(customizationId: number | null, routes: Record<string, FakeHandler> = {}, path = '/en') {
  const api = fakeApi(routes);
  const onClose = vi.fn();
  const page = renderPage(
    <CustomizationModal
      opened
      customerName="Acme Analytics"
      licence={licence(customizationId)}
      formKey={1}
      onClose={onClose}
    />,
    { path },
  );
  return { api, onClose, ...page };
}

/** The text area of the configuration editor, once its chunk has loaded. */
async function editor(name = 'Configuration (JSON)') {
  const box = await screen.findByRole('textbox', { name }, { timeout: 5000 });
  return box as HTMLTextAreaElement;
}

async function typeConfig(text: string, name?: string) {
  const box = await editor(name);
  act(() => {
    fireEvent.input(box, { target: { value: text } });
  });
}

const validateButton = () => screen.getByTestId('customization-validate') as HTMLButtonElement;

afterEach(() => {
  vi.useRealTimers();
  toastHistory.clear();
});

describe('CustomizationModal', () => {
  it('is titled with the customer and the product, and creates a customization for a licence with none', async () => {
    const { api, onClose, queryClient } = open(null, {
      'POST /api/customizations': ({ body }) => ({
        status: 201,
        body: customization({ ...(body as Partial<Customization>), id: 9 }),
      }),
    });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const dialog = await screen.findByRole('dialog', { name: /Acme Analytics\s*Graph Server/ });
    expect(screen.getByTestId('customization-product').textContent).toBe('Graph Server');
    expect((within(dialog).getByLabelText('Version type') as HTMLSelectElement).value).toBe('stable');
    expect((within(dialog).getByRole('switch', { name: 'Enabled' }) as HTMLInputElement).checked).toBe(true);
    expect(api.calls('GET /api/customizations/0')).toHaveLength(0);

    await typeConfig('{"branding": {"applicationName": "Acme"}}');
    fireEvent.change(within(dialog).getByLabelText('Version type'), { target: { value: 'alpha' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Enabled' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /api/customizations')[0].body).toEqual({
      customerId: 7,
      productKey: 'lke',
      versionType: 'alpha',
      enabled: false,
      customConfig: { branding: { applicationName: 'Acme' } },
    });
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The customization of Graph Server was created',
    });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['customers', 7, 'licences'] });
  });

  it('shows a loader while the existing customization loads, then edits it', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const { api, onClose } = open(5, {
      'GET /api/customizations/5': () => new Promise((resolve) => (answer = resolve)),
      'PATCH /api/customizations/5': ({ body }) => ({
        status: 200,
        body: customization(body as Partial<Customization>),
      }),
    });
    expect(await screen.findByTestId('customization-loader', {}, { timeout: 1000 })).toBeTruthy();
    expect(screen.queryByTestId('customization-form')).toBeNull();
    answer({ status: 200, body: customization() });

    const view = await editor();
    expect(JSON.parse(view.value)).toEqual({ branding: { applicationName: 'Acme Graph' } });
    expect(screen.queryByTestId('customization-loader')).toBeNull();
    expect((screen.getByLabelText('Version type') as HTMLSelectElement).value).toBe('beta');
    fireEvent.change(screen.getByLabelText('Version type'), { target: { value: 'stable' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /api/customizations')).toHaveLength(0);
    expect(api.calls('PATCH /api/customizations/5')[0].body).toEqual({
      versionType: 'stable',
      enabled: true,
      customConfig: { branding: { applicationName: 'Acme Graph' } },
    });
    expect(toastHistory.getSnapshot()[0].message).toBe('The customization of Graph Server was updated');
  });

  it('shows a customization its can does not let the caller change, without saving, validating or examples', async () => {
    const { api } = open(5, {
      'GET /api/customizations/5': () => ({
        status: 200,
        body: customization({ can: customizationCan('supportEngineer') }),
      }),
    });
    const view = await editor();
    expect(JSON.parse(view.value)).toEqual({ branding: { applicationName: 'Acme Graph' } });
    expect(view.getAttribute('aria-readonly')).toBe('true');
    expect(screen.getByTestId('customization-read-only').textContent).toBe(
      'You can read this customization, not change it.',
    );
    expect((screen.getByLabelText('Version type') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByLabelText('Enabled') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByTestId('customization-validate')).toBeNull();
    expect(screen.queryByText(/another customer/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(api.calls('PATCH /api/customizations/5')).toHaveLength(0);
  });

  it('disables Validate while the configuration is empty, and lists each problem with its path', async () => {
    const { api } = open(null, {
      'POST /api/customizations/validate': () => ({
        status: 200,
        body: {
          valid: false,
          problems: [
            { path: '/branding/primaryColour', message: 'must match format "colour"' },
            { path: '', message: "must have required property 'branding'" },
          ],
        },
      }),
    });
    await editor();
    expect(validateButton().disabled).toBe(true);
    await typeConfig('   ');
    expect(validateButton().disabled).toBe(true);
    await typeConfig('{"branding": {"primaryColour": "blue"}}');
    expect(validateButton().disabled).toBe(false);
    fireEvent.click(validateButton());

    const problems = await screen.findByTestId('customization-problems');
    expect(problems.textContent).toContain('The configuration is invalid: 2 problems');
    expect(
      within(problems)
        .getAllByTestId('customization-problem')
        .map((p) => p.textContent),
    ).toEqual(['/branding/primaryColour must match format "colour"', "/ must have required property 'branding'"]);
    expect(api.calls('POST /api/customizations/validate')[0].body).toEqual({
      customerId: 7,
      productKey: 'lke',
      versionType: 'stable',
      enabled: true,
      customConfig: { branding: { primaryColour: 'blue' } },
    });
    // a change of the text makes the last check stale
    await typeConfig('{"branding": {}}');
    await waitFor(() => expect(screen.queryByTestId('customization-problems')).toBeNull());
  });

  it('says a valid configuration is valid', async () => {
    open(null, { 'POST /api/customizations/validate': () => ({ status: 200, body: { valid: true, problems: [] } }) });
    await typeConfig('{"branding": {}}');
    fireEvent.click(validateButton());
    expect((await screen.findByTestId('customization-valid')).textContent).toBe('The configuration is valid.');
  });

  it('refuses text that is not a JSON object without asking the server', async () => {
    const { api } = open(null);
    await typeConfig('{"branding": ');
    fireEvent.click(validateButton());
    expect(await screen.findByText('The configuration must be a valid JSON object.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await typeConfig('[1, 2]');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The configuration must be a valid JSON object.')).toBeTruthy();
    expect(api.requests).toHaveLength(0);
  });

  it('shows the problems of a refused save the way Validate does, with the spec’s message', async () => {
    const { onClose } = open(null, {
      'POST /api/customizations': () =>
        apiError(400, 'validation_error', 'Some fields are not valid', [
          { path: 'customConfig/limits/maxUsers', message: 'must be integer' },
        ]),
    });
    await typeConfig('{"limits": {"maxUsers": "many"}}');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const feedback = await screen.findByTestId('customization-feedback');
    expect(feedback.textContent).toBe('The customization could not be created: Some fields are not valid.');
    expect(screen.getByTestId('customization-problem').textContent).toBe('/limits/maxUsers must be integer');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says why an edit failed', async () => {
    open(5, {
      'GET /api/customizations/5': () => ({ status: 200, body: customization() }),
      'PATCH /api/customizations/5': () => apiError(403, 'forbidden', 'Forbidden'),
    });
    await editor();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByTestId('customization-feedback')).textContent).toBe(
      'The customization could not be updated: You are not allowed to do this.',
    );
  });
});

describe('CustomizationModal example loading', () => {
  const customers: FakeHandler = ({ query }) => {
    const all = [
      { id: 7, name: 'Acme Analytics', customerKey: 'ACME000001', selfService: false, yourRole: 'admin' },
      { id: 8, name: 'Globex', customerKey: 'GLOBEX0001', selfService: false, yourRole: 'admin' },
      { id: 9, name: 'Globe Trotters', customerKey: 'GLOBE00001', selfService: false, yourRole: 'admin' },
    ];
    const filter = (query.get('filter') ?? '').toLowerCase();
    const data = all.filter((c) => c.name.toLowerCase().includes(filter));
    return { status: 200, body: { data, offset: 0, total: data.length, totalCapped: false } };
  };

  /** Types into the typeahead as a user does: it takes a change only from the focused field. */
  const search = (text: string, name = 'Start from another customer’s configuration') => {
    const input = screen.getByRole('combobox', { name });
    act(() => input.focus());
    fireEvent.change(input, { target: { value: text } });
  };

  it('searches customers from two characters, then loads the chosen one’s customization of the product', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = open(null, {
      'GET /api/customers': customers,
      'GET /api/customers/8/customizations': () => ({
        status: 200,
        body: { data: [customization({ id: 12, customerId: 8, customConfig: { features: ['timeline'] } })] },
      }),
    });
    const view = await editor();
    search('G');
    // well past the search's pause: one character asks nothing
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(api.calls('GET /api/customers')).toHaveLength(0);
    search('Glo');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    fireEvent.click(await screen.findByRole('option', { name: 'Globex' }, { timeout: 2000 }));
    expect(api.calls('GET /api/customers')[0].query.get('filter')).toBe('Glo');
    expect(screen.queryByRole('option', { name: 'Acme Analytics' })).toBeNull();

    await waitFor(() => expect(JSON.parse(view.value)).toEqual({ features: ['timeline'] }));
    expect(api.calls('GET /api/customers/8/customizations')[0].query.get('productKey')).toBe('lke');
    expect(screen.getByTestId('customization-example-loaded').textContent).toBe(
      'The configuration of Globex is in the editor.',
    );
    expect(validateButton().disabled).toBe(false);
  });

  it('says when the chosen customer has no customization of the product', async () => {
    open(null, {
      'GET /api/customers': customers,
      'GET /api/customers/9/customizations': () => ({ status: 200, body: { data: [] } }),
    });
    const view = await editor();
    search('Globe T');
    fireEvent.click(await screen.findByRole('option', { name: 'Globe Trotters' }, { timeout: 2000 }));
    expect((await screen.findByTestId('customization-example-none')).textContent).toBe(
      'No valid customization could be found for the selected customer',
    );
    expect(view.value).toBe('');
  });

  it('says when no customer matches the search, in French too', async () => {
    open(null, { 'GET /api/customers': customers }, '/fr');
    await editor('Configuration (JSON)');
    search('Zorg', 'Partir de la configuration d’un autre client');
    expect(
      await screen.findByText('Aucune personnalisation correspondante n’a été trouvée.', {}, { timeout: 2000 }),
    ).toBeTruthy();
  });
});
