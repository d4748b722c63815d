// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import type { InvitationPreview } from '../../../common/api/invitation-acceptance';
import { storage } from '../../app/storage';
import { profileCan } from '../../test/abilities';
import { apiError, fakeApi, type FakeHandler } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { InvitationPage } from './InvitationPage';
import { LEGAL_SCROLLER_HEIGHT } from './LegalStep';

const KEY = 'invitation-key_1';
const PASSWORD = 'Joining-Password-42!';

const preview = (props: Partial<InvitationPreview> = {}): InvitationPreview => ({
  customerName: 'Acme Analytics',
  role: 'technicalContact',
  inviterFullName: 'Paula Owner',
  invitedFullName: 'Nora New',
  newUser: true,
  status: 'pending',
  ...props,
});

const member: Profile = {
  id: 7,
  email: 'erin@example.com',
  fullName: 'Erin Existing',
  preferredLocale: 'en',
  type: 'client',
  yourRole: 'technicalContact',
  accounts: [],
  accountsTotal: 0,
  can: profileCan('client', 'technicalContact'),
};

const renderInvitation = (locale: 'en' | 'fr', profile: Profile | null) =>
  renderPage(<InvitationPage />, { path: `/${locale}/invitation/${KEY}`, route: '/:locale/invitation/:key', profile });

const location = () => screen.getByTestId('location');

/** The EULA and the GDPR notice as the server renders them, in the asked language. */
const LEGAL_TEXTS = {
  'terms-and-conditions': { en: 'These terms govern your use', fr: 'Ces conditions régissent votre usage' },
  'privacy-policy': { en: 'How we process personal data', fr: 'Comment nous traitons vos données personnelles' },
};
const legalRoutes: Record<string, FakeHandler> = Object.fromEntries(
  Object.entries(LEGAL_TEXTS).map(([document, texts]) => [
    `GET /api/legal/${document}`,
    ({ query }) => {
      const locale = query.get('locale') as 'en' | 'fr';
      return { status: 200, body: { html: `<h2>1.</h2><p>${texts[locale]}</p>`, locale, fallback: false } };
    },
  ]),
);

afterEach(() => storage.remove('customer'));

describe('InvitationPage', () => {
  it('shows the error page with the reason of a dead link, in the page language', async () => {
    fakeApi({
      [`GET /api/invitations/${KEY}`]: () =>
        apiError(410, 'invitation_cancelled', 'This invitation has been cancelled.'),
    });
    renderInvitation('fr', null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Erreur 410' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Cette invitation a été annulée.');
  });

  it('shows an unknown link as invalid, and an expired one as expired', async () => {
    fakeApi({ [`GET /api/invitations/${KEY}`]: () => apiError(404, 'invitation_invalid', 'invalid') });
    const first = renderInvitation('en', null);
    expect((await screen.findByRole('alert')).textContent).toBe('This invitation link is invalid.');
    first.unmount();
    fakeApi({ [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview({ status: 'expired' }) }) });
    renderInvitation('en', null);
    expect((await screen.findByRole('alert')).textContent).toContain('This invitation has expired.');
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
  });

  it('sends an existing user who is not signed in to the sign-in page, which brings them back here', async () => {
    fakeApi({ [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview({ newUser: false }) }) });
    renderInvitation('en', null);
    await waitFor(() => expect(location().textContent).toBe('/en/login'));
    expect(location().dataset.search).toBe(`?redirect=${encodeURIComponent(`/en/invitation/${KEY}`)}`);
  });

  it('lets a signed-in invited user join with one button, then opens the customer with the profile read again', async () => {
    const joined = {
      ...member,
      accounts: [{ id: 42, name: 'Acme Analytics', role: 'technicalContact' as const, accountExecutive: null }],
      accountsTotal: 1,
    };
    const api = fakeApi({
      [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview({ newUser: false }) }),
      [`POST /api/invitations/${KEY}/existing`]: () => ({ status: 200, body: { customerId: 42 } }),
      'GET /api/auth/me': () => ({ status: 200, body: joined }),
    });
    const { queryClient } = renderInvitation('en', member);
    expect((await screen.findByTestId('invitation-summary')).textContent).toBe(
      'Paula Owner invites you to join Acme Analytics as Technical contact.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(location().textContent).toBe('/en/accounts/42'));
    expect(api.calls(`POST /api/invitations/${KEY}/existing`)).toHaveLength(1);
    expect(queryClient.getQueryData<Profile>(['auth', 'me'])?.accountsTotal).toBe(1);
    expect(storage.get('customer')).toBe('42');
  });

  it('shows the error page when the invitation was sent to another address', async () => {
    fakeApi({
      [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview({ newUser: false }) }),
      [`POST /api/invitations/${KEY}/existing`]: () => apiError(403, 'invitation_other_email', 'other'),
    });
    renderInvitation('en', member);
    fireEvent.click(await screen.findByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Error 403' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This invitation was sent to another e-mail address.');
  });

  it('takes a new user through the join card, the EULA and the GDPR notice to the sign-up form, in French', async () => {
    fakeApi({ ...legalRoutes, [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview() }) });
    renderInvitation('fr', null);
    expect((await screen.findByTestId('invitation-summary')).textContent).toBe(
      'Paula Owner vous invite à rejoindre Acme Analytics en tant que Contact technique.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Rejoindre' }));

    const eula = await screen.findByRole('region', { name: 'Contrat de licence utilisateur final' });
    expect(eula.style.height).toBe(`${LEGAL_SCROLLER_HEIGHT}px`);
    expect(eula.tabIndex).toBe(0);
    await waitFor(() => expect(eula.textContent).toContain('conditions régissent'));
    expect(document.activeElement?.textContent).toBe('Contrat de licence utilisateur final');
    fireEvent.click(screen.getByRole('button', { name: "J'accepte" }));

    const gdpr = await screen.findByRole('region', { name: 'Notice de confidentialité' });
    await waitFor(() => expect(gdpr.textContent).toContain('données personnelles'));
    expect(gdpr.querySelector('h2')?.textContent).toBe('1.');
    // Back returns to the EULA, and forward again
    fireEvent.click(screen.getByRole('button', { name: 'Retour' }));
    expect(await screen.findByRole('region', { name: 'Contrat de licence utilisateur final' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: "J'accepte" }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: "J'accepte" }));
    await screen.findByRole('region', { name: 'Notice de confidentialité' });
    await waitFor(() => expect(screen.getByRole('button', { name: "J'accepte" }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: "J'accepte" }));

    const name = (await screen.findByLabelText(/^Nom complet/)) as HTMLInputElement;
    expect(name.value).toBe('Nora New');
    expect(screen.getByTestId('invitation-step').textContent).toBe('Étape 4 sur 4');
  });

  it('checks the password rule and the confirmation before sending', async () => {
    const api = fakeApi({ ...legalRoutes, [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview() }) });
    renderInvitation('en', null);
    await goToForm();
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByText('The passwords do not match.')).toBeTruthy();
    expect(screen.getByText('The password must be at least 15 characters long.')).toBeTruthy();
    expect(api.calls(`POST /api/invitations/${KEY}/new`)).toHaveLength(0);
  });

  it('refuses a password made of the name typed before sending, on the field with the focus', async () => {
    const api = fakeApi({ ...legalRoutes, [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview() }) });
    renderInvitation('en', null);
    await goToForm();
    fireEvent.change(screen.getByLabelText(/^Full name/), { target: { value: 'Noranda Newberry' } });
    const password = screen.getByLabelText(/^Password/);
    fireEvent.change(password, { target: { value: 'Noranda-Newberry-77!' } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: 'Noranda-Newberry-77!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(
      await screen.findByText("The password must not be made of your e-mail address, your name or the portal's name."),
    ).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(api.calls(`POST /api/invitations/${KEY}/new`)).toHaveLength(0);
  });

  it('creates the account with the typed name and password, reloads the profile and opens the customer', async () => {
    const created: Profile = {
      ...member,
      id: 8,
      email: 'nora@example.com',
      fullName: 'Nora N.',
      preferredLocale: 'fr',
    };
    const api = fakeApi({
      ...legalRoutes,
      [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview() }),
      [`POST /api/invitations/${KEY}/new`]: () => ({ status: 200, body: { customerId: 42 } }),
      'GET /api/auth/me': () => ({ status: 200, body: created }),
    });
    const { queryClient } = renderInvitation('en', null);
    await goToForm();
    fireEvent.change(screen.getByLabelText(/^Full name/), { target: { value: 'Nora N.' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: PASSWORD } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    // the account's language (the invitation's) decides the locale of the customer page
    await waitFor(() => expect(location().textContent).toBe('/fr/accounts/42'));
    expect(api.calls(`POST /api/invitations/${KEY}/new`)[0].body).toEqual({ fullName: 'Nora N.', password: PASSWORD });
    expect(queryClient.getQueryData<Profile>(['auth', 'me'])?.email).toBe('nora@example.com');
  });

  it('shows a refused field on the form, and a refusal that ends the invitation on the error page', async () => {
    let answer = apiError(400, 'validation_error', 'invalid', [
      { path: 'password', message: 'password.error.no_number' },
    ]);
    fakeApi({
      ...legalRoutes,
      [`GET /api/invitations/${KEY}`]: () => ({ status: 200, body: preview() }),
      [`POST /api/invitations/${KEY}/new`]: () => answer,
    });
    renderInvitation('en', null);
    await goToForm();
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: PASSWORD } });
    fireEvent.change(screen.getByLabelText(/^Confirm password/), { target: { value: PASSWORD } });
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect((await screen.findByTestId('invitation-feedback')).textContent).toContain(
      'The password must contain a digit.',
    );
    expect(screen.getByLabelText(/^Password/).getAttribute('aria-invalid')).toBe('true');
    // the server's refusal takes the focus to the field that says why
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Password/)));

    answer = apiError(409, 'invitation_account_exists', 'exists');
    fireEvent.click(screen.getByRole('button', { name: 'Create my account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Error 409' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'An account already exists for this e-mail address: sign in to join.',
    );
  });
});

/** Join card, EULA, GDPR notice: to the sign-up form. */
async function goToForm() {
  fireEvent.click(await screen.findByRole('button', { name: 'Join' }));
  for (const title of ['End-user licence agreement', 'Privacy notice']) {
    await screen.findByRole('region', { name: title });
    await waitFor(() => expect(screen.getByRole('button', { name: 'I accept' }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'I accept' }));
  }
  await screen.findByLabelText(/^Full name/);
}
