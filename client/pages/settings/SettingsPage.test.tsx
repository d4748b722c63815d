// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import { PROFILE_KEY } from '../../app/session';
import { notificationStore } from '../../components/notify';
import { apiError, fakeApi } from '../../test/fakeApi';
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
    expect(notificationStore.getSnapshot()[0]).toMatchObject({
      status: 'error',
      title: 'Some of your settings could not be updated.',
    });
  });

  it('puts a taken e-mail on the e-mail field', async () => {
    fakeApi({
      'PATCH /api/auth/me': () =>
        apiError(409, 'email_taken', 'This e-mail address is already used by another account'),
    });
    renderSettings();
    const email = within(form()).getByLabelText(/^Email/) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'pm@demo.portal' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));

    await within(form()).findByTestId('settings-error');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'This e-mail address is already used by another account.',
    );
    expect(email.value).toBe('pm@demo.portal');
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
    expect(api.calls('PATCH /api/auth/me')[0].body).toEqual({
      email: 'admin@demo.portal',
      fullName: 'Alice B. Martin',
      preferredLocale: 'en',
    });
    expect(queryClient.getQueryData<Profile>(PROFILE_KEY)?.fullName).toBe('Alice B. Martin');
    expect(notificationStore.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'Your settings have been saved.',
    });
    expect(within(form()).queryByTestId('settings-error')).toBeNull();
  });
});
