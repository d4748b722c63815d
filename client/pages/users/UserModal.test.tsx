// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../../common/api/users';
import { toastHistory } from '../../components/notify';
import { userCan } from '../../test/abilities';
import { apiError, type FakeAnswer, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { UserModal } from './UserModal';

const priya: User = {
  id: 3,
  fullname: 'Priya Nair',
  email: 'pm@demo.portal',
  type: 'productManager',
  status: 'enabled',
  preferredLocale: 'en',
  // as the server answers it to the signed-in admin
  can: userCan(),
  twoFactor: { passkeys: 2, authenticator: true },
};
// The signed-in user of renderPage (admin@demo.portal): the server's answer keeps their own status.
const me: User = {
  ...priya,
  id: 1,
  fullname: 'Alice Martin',
  email: 'Admin@Demo.Portal',
  type: 'admin',
  can: userCan({ self: true }),
  twoFactor: { passkeys: 0, authenticator: false },
};

function openModal(user: User | null, onClose = vi.fn()) {
  renderPage(<UserModal opened user={user} formKey={1} onClose={onClose} />);
  return { onClose, dialog: screen.getByRole('dialog') };
}

const statusField = () => screen.getByLabelText('Status') as HTMLSelectElement;

describe('UserModal', () => {
  it('lets an admin change another user’s status and sends it', async () => {
    const api = fakeApi({
      'PATCH /api/users/3': ({ body }) => ({ status: 200, body: { ...priya, ...(body as object) } }),
    });
    const { onClose } = openModal(priya);
    expect(statusField().disabled).toBe(false);
    expect(screen.queryByText('You cannot change your own status.')).toBeNull();

    fireEvent.change(statusField(), { target: { value: 'disabled' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PATCH /api/users/3')[0].body).toMatchObject({ status: 'disabled', email: 'pm@demo.portal' });
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The user pm@demo.portal was updated.',
    });
  });

  it('locks the status of the signed-in user, says why, and never sends it', async () => {
    const api = fakeApi({
      'PATCH /api/users/1': () => ({ status: 200, body: me }),
      'GET /api/auth/me': () => ({ status: 200, body: adminProfile }),
    });
    const { onClose } = openModal(me);
    const status = statusField();
    expect(status.disabled).toBe(true);
    const reason = screen.getByText('You cannot change your own status.');
    expect(status.getAttribute('aria-describedby')).toContain(reason.id);

    // Typing another e-mail does not unlock it: the rule is about who is being edited.
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'someone-else@demo.portal' } });
    expect(statusField().disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PATCH /api/users/1')[0].body).not.toHaveProperty('status');
    // Their own row changed: the profile (the top bar's e-mail) is loaded again.
    await waitFor(() => expect(api.calls('GET /api/auth/me')).toHaveLength(1));
  });

  it("follows the user's can, not the e-mails: another user's status stays locked when can says so", async () => {
    const api = fakeApi({ 'PATCH /api/users/3': () => ({ status: 200, body: priya }) });
    const { onClose } = openModal({ ...priya, can: { edit: true, changeStatus: false } });
    expect(statusField().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('PATCH /api/users/3')[0].body).not.toHaveProperty('status');
  });

  it('shows a taken e-mail on the field and in the modal, keeping everything typed', async () => {
    fakeApi({
      'PATCH /api/users/3': () =>
        apiError(409, 'email_taken', 'This e-mail address is already used by another account', [
          { path: 'email', message: 'apiErrors.email_taken' },
        ]),
    });
    const { onClose, dialog } = openModal(priya);
    // The modal puts the focus on its first field when it opens.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Full name/)));
    fireEvent.change(within(dialog).getByLabelText(/^Full name/), { target: { value: 'Priya N. Nair' } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: 'ae@demo.portal' } });
    fireEvent.change(statusField(), { target: { value: 'disabled' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    const feedback = await within(dialog).findByTestId('user-modal-feedback');
    expect(feedback.textContent).toBe(
      'The user could not be updated: This e-mail address is already used by another account.',
    );
    const email = within(dialog).getByLabelText(/^Email/) as HTMLInputElement;
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const fieldError = document.getElementById(email.getAttribute('aria-describedby') ?? '');
    expect(fieldError?.textContent).toBe('This e-mail address is already used by another account.');
    await waitFor(() => expect(document.activeElement).toBe(email));

    expect(email.value).toBe('ae@demo.portal');
    expect((within(dialog).getByLabelText(/^Full name/) as HTMLInputElement).value).toBe('Priya N. Nair');
    expect(statusField().value).toBe('disabled');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('creates with the spec defaults: type admin, English', async () => {
    const api = fakeApi({
      'POST /api/users': ({ body }) => ({ status: 201, body: { ...priya, id: 9, ...(body as object) } }),
    });
    const { onClose } = openModal(null);
    expect(screen.queryByLabelText('Status')).toBeNull();
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('admin');
    expect((screen.getByLabelText('Preferred language') as HTMLSelectElement).value).toBe('en');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('This field is required.')).toHaveLength(2);
    expect(api.calls('POST /api/users')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(/^Full name/), { target: { value: 'New Person' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'new@demo.portal' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /api/users')[0].body).toEqual({
      fullname: 'New Person',
      email: 'new@demo.portal',
      type: 'admin',
      preferredLocale: 'en',
    });
  });

  it('stays open while saving: Cancel, the close button and Escape wait for the answer, which is then told', async () => {
    let answer: (value: FakeAnswer) => void = () => {};
    const api = fakeApi({
      'POST /api/users': () =>
        new Promise<FakeAnswer>((resolve) => {
          answer = resolve;
        }),
    });
    const { onClose, dialog } = openModal(null);
    fireEvent.change(within(dialog).getByLabelText(/^Full name/), { target: { value: 'Slow Answer' } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: 'slow@demo.portal' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    const cancel = within(dialog).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement;
    const close = screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement;
    await waitFor(() => expect(cancel.disabled).toBe(true));
    expect(close.disabled).toBe(true);
    fireEvent.click(cancel);
    fireEvent.click(close);
    fireEvent.keyDown(within(dialog).getByLabelText(/^Full name/), { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    expect(api.calls('POST /api/users')).toHaveLength(1);

    answer({ status: 201, body: { ...priya, id: 12, fullname: 'Slow Answer', email: 'slow@demo.portal' } });
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'The user slow@demo.portal was created.',
    });
  });

  it('can be cancelled when no save is under way', () => {
    const { onClose, dialog } = openModal(null);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('names its close button in the page language', () => {
    renderPage(<UserModal opened user={priya} formKey={1} onClose={() => {}} />, { path: '/fr' });
    expect(screen.getByRole('button', { name: 'Fermer' })).toBeTruthy();
    expect(screen.getByLabelText('Statut')).toBeTruthy();
  });

  it("shows another user's two-factor sign-in with the reset next to it, and only the status for oneself", async () => {
    const api = fakeApi({ 'DELETE /api/users/3/two-factor': () => ({ status: 200, body: { ok: true } }) });
    openModal(priya);
    const status = screen.getByTestId('user-modal-two-factor');
    expect(status.textContent).toBe('On 2 passkeys, authenticator app: yes');
    fireEvent.click(screen.getByRole('button', { name: 'Reset two-factor' }));
    fireEvent.click(await screen.findByTestId('reset-two-factor-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('user-modal-two-factor').textContent).toBe('Off 0 passkeys, authenticator app: no'),
    );
    expect(api.calls('DELETE /api/users/3/two-factor')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Reset two-factor' })).toBeNull();
  });

  it('offers no reset of one’s own factors', () => {
    openModal({ ...me, twoFactor: { passkeys: 1, authenticator: false } });
    expect(screen.getByTestId('user-modal-two-factor').textContent).toBe('On 1 passkey, authenticator app: no');
    expect(screen.queryByRole('button', { name: 'Reset two-factor' })).toBeNull();
  });
});
