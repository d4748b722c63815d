// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { signupOutcomeOf } from '../../api/signup';
import { apiError, type FakeAnswer, fakeApi } from '../../test/fake-api';
import { builtinConfig, renderPublicPage } from '../../test/render';
import { SignUpPage } from './SignUpPage';

const LABELS = {
  en: ['First name', 'Last name', 'Work e-mail', 'Company name', 'Job title'],
  fr: ['Prénom', 'Nom', 'E-mail professionnel', "Nom de l'entreprise", 'Fonction'],
};
const VALUES = ['Vera', 'Visitor', 'Vera@Example.com ', 'Vera Graphs', 'Data architect'];

function fill(locale: 'en' | 'fr' = 'en') {
  LABELS[locale].forEach((label, index) =>
    fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value: VALUES[index] } }),
  );
}

const submit = (name = 'Sign up') => fireEvent.click(screen.getByRole('button', { name }));

function open(answer: () => FakeAnswer | Promise<FakeAnswer>, locale: 'en' | 'fr' = 'en') {
  const api = fakeApi({ 'POST /api/signup': answer });
  renderPublicPage(<SignUpPage />, { path: `/${locale}/sign-up` });
  return api;
}

describe('SignUpPage', () => {
  it('says the portal offers no sign-up when self-service is off, with the way to sign in, in both languages', async () => {
    const api = fakeApi({});
    const config = { ...builtinConfig, selfServiceSignup: false };
    const { unmount } = renderPublicPage(<SignUpPage />, { path: '/en/sign-up', config });
    expect((await screen.findByTestId('signup-unavailable')).textContent).toContain('Sign-up is not offered');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/en/login');
    unmount();
    renderPublicPage(<SignUpPage />, { path: '/fr/sign-up', config });
    expect((await screen.findByTestId('signup-unavailable')).textContent).toContain("L'inscription n'est pas proposée");
    expect(api.calls('POST /api/signup')).toHaveLength(0);
  });

  it('sends the five fields with the page’s language, then says to check the inbox in place of the form', async () => {
    const api = open(() => ({ status: 200, body: { ok: true } }), 'fr');
    fill('fr');
    submit("M'inscrire");
    expect(await screen.findByTestId('signup-outcome-success')).toBeTruthy();
    expect(api.calls('POST /api/signup')[0].body).toEqual({
      firstName: 'Vera',
      lastName: 'Visitor',
      email: 'vera@example.com',
      companyName: 'Vera Graphs',
      jobTitle: 'Data architect',
      locale: 'fr',
    });
    expect(screen.queryByLabelText('Prénom')).toBeNull();
    const heading = screen.getByRole('heading', { level: 2, name: 'Consultez votre boîte de réception' });
    // focused by an effect once the screen is there
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText(/Nous avons envoyé un lien à Vera@Example.com/)).toBeTruthy();
  });

  it('requires every field before sending anything', async () => {
    const api = open(() => ({ status: 200, body: { ok: true } }));
    submit();
    expect(await screen.findAllByText('This field is required.')).toHaveLength(5);
    expect(screen.getByLabelText('Work e-mail').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('POST /api/signup')).toHaveLength(0);
  });

  it('disables its button while the sign-up is on its way', async () => {
    let answer: (value: FakeAnswer) => void = () => {};
    open(() => new Promise<FakeAnswer>((resolve) => (answer = resolve)));
    fill();
    submit();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Sign up' }) as HTMLButtonElement).disabled).toBe(true),
    );
    answer({ status: 200, body: { ok: true } });
    expect(await screen.findByTestId('signup-outcome-success')).toBeTruthy();
  });

  it('shows the existing-user screen with the way to sign in and to support', async () => {
    open(() => apiError(409, 'signup_already_exists', 'An account with this e-mail address already exists.'));
    fill();
    submit();
    expect(await screen.findByTestId('signup-outcome-existingUser')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/en/login');
    expect((await screen.findByRole('link', { name: 'Contact support' })).getAttribute('href')).toBe(
      'https://support.example.com',
    );
  });

  it('shows the pending screen: check the inbox and the spam folder', async () => {
    open(() => apiError(409, 'signup_pending_invitation', 'There is already a pending invitation for this e-mail.'));
    fill();
    submit();
    expect(await screen.findByTestId('signup-outcome-pending')).toBeTruthy();
    expect(screen.getByText(/Check your inbox and your spam folder/)).toBeTruthy();
  });

  it('shows the generic screen with the reason and the sales contact, and goes back to the form with what was typed', async () => {
    open(() => apiError(429, 'rate_limited', 'Too many requests'));
    fill();
    submit();
    expect(await screen.findByTestId('signup-outcome-generic')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Too many attempts.');
    expect((await screen.findByRole('link', { name: 'Contact sales' })).getAttribute('href')).toBe(
      'mailto:support@example.com',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((screen.getByLabelText('Company name') as HTMLInputElement).value).toBe('Vera Graphs');
  });

  it('keeps the form when the server refuses a field, with the field’s message', async () => {
    open(() => apiError(400, 'validation_error', 'email: invalid', [{ path: 'email', message: 'email.invalid' }]));
    fill();
    submit();
    await waitFor(() => expect(screen.getByLabelText('Work e-mail').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByTestId('signup-outcome-generic')).toBeNull();
  });

  it('links to the privacy policy and to sign-in in the page’s language', async () => {
    open(() => ({ status: 200, body: { ok: true } }), 'fr');
    expect((await screen.findByRole('link', { name: 'politique de confidentialité' })).getAttribute('href')).toBe(
      '/fr/privacy-policy',
    );
    expect(screen.getByRole('link', { name: 'Se connecter' }).getAttribute('href')).toBe('/fr/login');
  });
});

describe('signupOutcomeOf (spec 4)', () => {
  it('reads the codes, and the spec’s words in a message otherwise', () => {
    expect(signupOutcomeOf(new ApiError(409, 'signup_pending_invitation', 'x'))).toBe('pending');
    expect(signupOutcomeOf(new ApiError(409, 'signup_already_exists', 'x'))).toBe('existingUser');
    expect(signupOutcomeOf(new ApiError(409, 'conflict', 'there is a pending invitation here'))).toBe('pending');
    expect(signupOutcomeOf(new ApiError(409, 'conflict', 'this account already exists'))).toBe('existingUser');
    expect(signupOutcomeOf(new ApiError(500, 'internal_error', 'boom'))).toBe('generic');
    expect(signupOutcomeOf(new TypeError('Failed to fetch'))).toBe('generic');
  });
});
