// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import { PROFILE_KEY } from '../../app/session';
import { toastHistory } from '../../components/notify';
import { apiError, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { SettingsPage } from './SettingsPage';

const renderSettings = (path = '/en/settings') => renderPage(<SettingsPage />, { path, route: '/:locale/settings' });

const form = () => screen.getByTestId('settings-profile');

function changeFullName(value: string) {
  fireEvent.change(within(form()).getByLabelText(/^Full name|^Nom complet/), { target: { value } });
}

describe('SettingsPage', () => {
  it('says "Some of your settings could not be updated." when saving fails, keeping what was typed', async () => {
    fakeApi({ 'PATCH /api/auth/me': () => apiError(500, 'internal_error', 'Internal error') });
    renderSettings();
    changeFullName('Alice B. Martin');
    fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));

    const alert = await within(form()).findByTestId('settings-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toContain('Some of your settings could not be updated.');
    expect(alert.textContent).toContain('An error has occurred...');
    expect((within(form()).getByLabelText(/^Full name/) as HTMLInputElement).value).toBe('Alice B. Martin');
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'error',
      title: 'Some of your settings could not be updated.',
    });
  });

  it('asks for the current password when the e-mail changes, then says a link was sent to the new address', async () => {
    const api = fakeApi({
      'PATCH /api/auth/me': () => ({ status: 200, body: adminProfile }),
      'GET /api/auth/me': () => ({ status: 200, body: adminProfile }),
    });
    renderSettings();
    expect(within(form()).queryByLabelText(/^Current password/)).toBeNull();
    const email = within(form()).getByLabelText(/^Email/) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'alice.new@demo.portal' } });
    const password = within(form()).getByLabelText(/^Current password/) as HTMLInputElement;

    // Not sent without the password.
    fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(await within(form()).findByText('This field is required.')).toBeTruthy();
    expect(api.calls('PATCH /api/auth/me')).toHaveLength(0);

    fireEvent.change(password, { target: { value: 'My-Current-Password-1!' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    const pending = await within(form()).findByTestId('settings-email-pending');
    expect(pending.textContent).toBe(
      'A confirmation link was sent to alice.new@demo.portal. Your e-mail address changes when you follow it (within 24 hours).',
    );
    expect(api.calls('PATCH /api/auth/me')[0].body).toEqual({
      email: 'alice.new@demo.portal',
      currentPassword: 'My-Current-Password-1!',
      fullName: adminProfile.fullName,
      preferredLocale: 'en',
    });
    // Until the link is followed the account keeps its address, and the form shows it.
    expect(email.value).toBe('admin@demo.portal');
    expect(within(form()).queryByLabelText(/^Current password/)).toBeNull();
  });

  it('puts a wrong current password on its field', async () => {
    fakeApi({
      'PATCH /api/auth/me': () =>
        apiError(400, 'wrong_password', 'The current password is not correct', [
          { path: 'currentPassword', message: 'apiErrors.wrong_password' },
        ]),
    });
    renderSettings('/fr/settings');
    fireEvent.change(within(form()).getByLabelText(/^E-mail/), { target: { value: 'autre@demo.portal' } });
    fireEvent.change(within(form()).getByLabelText(/^Mot de passe actuel/), { target: { value: 'faux' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Enregistrer' }));
    const alert = await within(form()).findByTestId('settings-error');
    expect(alert.textContent).toContain("Le mot de passe actuel n'est pas correct.");
    const password = within(form()).getByLabelText(/^Mot de passe actuel/);
    expect(password.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(password));
  });

  it('keeps every keystroke: typing, backspacing, changing the language then typing again', () => {
    fakeApi({});
    renderSettings();
    const fullName = () => within(form()).getByLabelText(/^Full name/) as HTMLInputElement;
    const language = () => within(form()).getByLabelText('Preferred language') as HTMLSelectElement;

    // The whole name selected and typed over, one key at a time, then corrected.
    fullName().setSelectionRange(0, fullName().value.length);
    for (const value of ['B', 'Bo', 'Bob', 'Bo']) fireEvent.change(fullName(), { target: { value } });
    expect(fullName().value).toBe('Bo');
    fireEvent.change(language(), { target: { value: 'fr' } });
    for (const value of ['Bob', 'Bob ', 'Bob M']) fireEvent.change(fullName(), { target: { value } });

    expect(fullName().value).toBe('Bob M');
    expect(language().value).toBe('fr');
    expect(within(form()).getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('gives the failure message in French on the French page', async () => {
    fakeApi({ 'PATCH /api/auth/me': () => 'network-error' });
    renderSettings('/fr/settings');
    expect(document.title).toBe('Paramètres · Graph Portal');
    fireEvent.click(within(form()).getByRole('button', { name: 'Enregistrer' }));
    const alert = await within(form()).findByTestId('settings-error');
    expect(alert.textContent).toContain("Certains de vos paramètres n'ont pas pu être mis à jour.");
    expect(alert.textContent).toContain('Le portail est injoignable.');
  });

  it('saves the profile, reloads it and shows success without an error', async () => {
    let stored: Profile = { ...adminProfile };
    const api = fakeApi({
      'PATCH /api/auth/me': ({ body }) => {
        stored = { ...stored, ...(body as Partial<Profile>) };
        return { status: 200, body: stored };
      },
      'GET /api/auth/me': () => ({ status: 200, body: stored }),
    });
    const { queryClient } = renderSettings();
    changeFullName('Alice B. Martin');
    fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.calls('GET /api/auth/me')).toHaveLength(1));
    // The e-mail did not change, so it is not sent (nor a password asked for).
    expect(api.calls('PATCH /api/auth/me')[0].body).toEqual({
      fullName: 'Alice B. Martin',
      preferredLocale: 'en',
    });
    expect(queryClient.getQueryData<Profile>(PROFILE_KEY)?.fullName).toBe('Alice B. Martin');
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'Your settings have been saved.',
    });
    expect(within(form()).queryByTestId('settings-error')).toBeNull();
  });
});
