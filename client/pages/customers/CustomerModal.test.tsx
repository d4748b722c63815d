// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Customer } from '../../../common/api/customers';
import { customerKeys } from '../../api/customers';
import { toastHistory } from '../../components/notify';
import { customerCan } from '../../test/abilities';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { CustomerModal } from './CustomerModal';

const acme: Customer = {
  id: 4,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: null,
  billingEmail: null,
  yourRole: 'admin',
  yourMembershipId: null,
  yourSettings: null,
  can: customerCan('admin'),
};

function openModal(customer: Customer | null, path = '/en') {
  const onClose = vi.fn();
  const rendered = renderPage(<CustomerModal opened customer={customer} formKey={1} onClose={onClose} />, { path });
  return { onClose, dialog: screen.getByRole('dialog'), ...rendered };
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;

describe('CustomerModal', () => {
  it('requires a name and a key of exactly 10 characters when one is given, and sends nothing until then', async () => {
    const api = fakeApi({});
    const { dialog } = openModal(null);
    expect(within(dialog).getByText('Add a customer')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy();
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Umbrella' } });
    fireEvent.change(field(dialog, 'Customer key'), { target: { value: 'SHORT' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The customer key must be exactly 10 characters long.')).toBeTruthy();
    expect(field(dialog, 'Customer key').getAttribute('aria-invalid')).toBe('true');
    expect(api.requests).toEqual([]);
  });

  it('creates with the key left empty, notifies with the generated key and closes', async () => {
    const api = fakeApi({
      'POST /api/customers': () => ({
        status: 201,
        body: { ...acme, id: 9, name: 'Umbrella', customerKey: 'GENKEY2345' },
      }),
    });
    const { dialog, onClose } = openModal(null);
    fireEvent.change(field(dialog, 'Name'), { target: { value: '  Umbrella ' } });
    fireEvent.click(field(dialog, 'Self-service customer'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /api/customers')[0].body).toEqual({ name: 'Umbrella', customerKey: '', selfService: true });
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The customer Umbrella was created with the key GENKEY2345.',
    });
  });

  it('sends Save again after a lost answer with the same Idempotency-Key, and changed values with another', async () => {
    let answers = 0;
    const api = fakeApi({
      'POST /api/customers': () => (answers++ < 2 ? 'network-error' : { status: 201, body: { ...acme, id: 9 } }),
    });
    const { dialog, onClose } = openModal(null);
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Umbrella' } });
    const save = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    save();
    await waitFor(() => expect(api.calls('POST /api/customers')).toHaveLength(1));
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false),
    );
    save();
    await waitFor(() => expect(api.calls('POST /api/customers')).toHaveLength(2));
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false),
    );
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Umbrella Corp' } });
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [first, again, changed] = api.calls('POST /api/customers').map((r) => r.headers.get('idempotency-key'));
    expect(first).toMatch(/^[0-9a-f]{32}-[0-9a-f]{8}$/);
    expect(again).toBe(first);
    expect(changed).not.toBe(first);
  });

  it('shows a key in use on its field and the spec message, keeping what was typed', async () => {
    fakeApi({
      'POST /api/customers': () =>
        apiError(409, 'customer_key_taken', 'A customer with this key already exists', [
          { path: 'customerKey', message: 'apiErrors.customer_key_taken' },
        ]),
    });
    const { dialog, onClose } = openModal(null, '/fr');
    fireEvent.change(field(dialog, 'Nom'), { target: { value: 'Umbrella' } });
    fireEvent.change(field(dialog, 'Clé client'), { target: { value: 'TAKEN00001' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect((await within(dialog).findByTestId('customer-modal-feedback')).textContent).toBe(
      "Le client n'a pas pu être créé : Un client utilise déjà cette clé.",
    );
    // and on the field itself
    expect(field(dialog, 'Clé client').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getAllByText('Un client utilise déjà cette clé.')).toHaveLength(1);
    expect(field(dialog, 'Clé client').value).toBe('TAKEN00001');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('edits name and key only, says so, and reloads the customer when closed', async () => {
    const api = fakeApi({
      'PATCH /api/customers/4': ({ body }) => ({ status: 200, body: { ...acme, ...(body as object) } }),
    });
    const { dialog, onClose, queryClient } = openModal(acme);
    expect(within(dialog).getByText('Edit customer')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Self-service customer')).toBeNull();
    expect(field(dialog, 'Customer key').value).toBe('ACME000001');
    fireEvent.change(field(dialog, 'Customer key'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The customer key must be exactly 10 characters long.')).toBeTruthy();

    fireEvent.change(field(dialog, 'Customer key'), { target: { value: 'ACME000002' } });
    fireEvent.change(field(dialog, 'Name'), { target: { value: 'Acme Corp' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PATCH /api/customers/4')[0].body).toEqual({ name: 'Acme Corp', customerKey: 'ACME000002' });
    expect(toastHistory.getSnapshot()[0]).toMatchObject({ message: 'The customer Acme Corp was updated.' });

    queryClient.setQueryData(customerKeys.one(4), acme);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(queryClient.getQueryState(customerKeys.one(4))?.isInvalidated).toBe(true);
  });
});
