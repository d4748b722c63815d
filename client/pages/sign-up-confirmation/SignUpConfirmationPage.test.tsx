// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../common/api/auth';
import type { SignupPreview } from '../../../common/api/signup-confirmation';
import { storage } from '../../app/storage';
import { profileCan } from '../../test/abilities';
import { apiError, type FakeAnswer, type FakeHandler, fakeApi } from '../../test/fake-api';
import { renderPage } from '../../test/render';
import { LEGAL_SCROLLER_HEIGHT } from '../invitation/LegalStep';
import { SignUpConfirmationPage } from './SignUpConfirmationPage';

const KEY = 'signup-key_1';
const PASSWORD = 'Trial-Password-2026!';

const preview: SignupPreview = {
  email: 'jean@graphes.example',
  invitedFullName: 'Jean Pierre Martin',
  companyName: 'Graphes SA',
};

const newAccount: Profile = {
  id: 9,
  email: preview.email,
  fullName: 'Jean Pierre Martin',
  preferredLocale: 'en',
  type: 'client',
  yourRole: 'businessOwner',
  accounts: [{ id: 42, name: 'Graphes SA', role: 'businessOwner', accountExecutive: null }],
  accountsTotal: 1,
  can: profileCan('client', 'businessOwner'),
};

const legal: Record<string, FakeHandler> = {
  'GET /api/legal/terms-and-conditions': () => ({
    status: 200,
    body: { html: '<p>These terms govern your use</p>', locale: 'en', fallback: false },
  }),
  'GET /api/legal/privacy-policy': () => ({
    status: 200,
    body: { html: '<p>How we process personal data</p>', locale: 'en', fallback: false },
  }),
};

function open(confirm: FakeHandler = () => ({ status: 200, body: { customerId: 42 } }), locale: 'en' | 'fr' = 'en') {
  const api = fakeApi({
    ...legal,
    [`GET /api/signup/${KEY}`]: () => ({ status: 200, body: preview }),
    [`POST /api/signup/${KEY}/confirm`]: confirm,
    'GET /api/auth/me': () => ({ status: 200, body: newAccount }),
  });
  const rendered = renderPage(<SignUpConfirmationPage />, {
    path: `/${locale}/sign-up/confirmation/${KEY}`,
    route: '/:locale/sign-up/confirmation/:key',
    profile: null,
  });
  return { api, ...rendered };
}

const next = () => fireEvent.click(screen.getByTestId('wizard-next'));

/** The wizard opened and taken through its use case and graph database steps to the password. */
async function openAtPasswordStep() {
  const opened = open();
  await screen.findByTestId('wizard-use-case');
  fireEvent.click(screen.getByLabelText('Health'));
  next();
  fireEvent.click(await screen.findByLabelText('Memgraph'));
  next();
  return opened;
}
const stepButton = (n: number) => screen.getByTestId(`wizard-step-${n}`) as HTMLButtonElement;
const progress = () => screen.getByTestId('wizard-progress').getAttribute('aria-valuenow');

/** Through the three steps to the EULA, with the password step's fields as they come. */
async function throughTheSteps() {
  await screen.findByTestId('wizard-use-case');
  fireEvent.click(screen.getByLabelText('Knowledge management'));
  next();
  fireEvent.click(await screen.findByLabelText('Amazon Neptune'));
  next();
  await screen.findByLabelText('Password');
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: PASSWORD } });
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: PASSWORD } });
  next();
}

async function acceptLegalTexts() {
  const eula = await screen.findByRole('region', { name: 'End-user licence agreement' });
  expect(eula.style.height).toBe(`${LEGAL_SCROLLER_HEIGHT}px`);
  await within(eula).findByText('These terms govern your use');
  fireEvent.click(screen.getByRole('button', { name: 'I accept' }));
  const gdpr = await screen.findByRole('region', { name: 'Privacy notice' });
  await within(gdpr).findByText('How we process personal data');
  fireEvent.click(screen.getByRole('button', { name: 'I accept' }));
}

describe('SignUpConfirmationPage', () => {
  it('shows the error page with the reason of a dead link, in the page’s language', async () => {
    fakeApi({
      [`GET /api/signup/${KEY}`]: () => apiError(410, 'signup_expired', 'This confirmation link has expired.'),
    });
    renderPage(<SignUpConfirmationPage />, {
      path: `/fr/sign-up/confirmation/${KEY}`,
      route: '/:locale/sign-up/confirmation/:key',
      profile: null,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Erreur 410' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'Ce lien de confirmation a expiré : inscrivez-vous à nouveau pour en recevoir un autre.',
    );
  });

  it('requires a use case, clears the error once one is chosen, and never lets a step be skipped', async () => {
    open();
    expect((await screen.findByTestId('signup-summary')).textContent).toBe(
      'For Graphes SA, signed up as jean@graphes.example.',
    );
    expect(progress()).toBe('1');
    expect(stepButton(3).disabled).toBe(true);
    next();
    expect(screen.getByTestId('wizard-use-case-error').textContent).toBe('Choose a use case to continue.');
    expect(progress()).toBe('1');
    // the next step's button checks the current one the same way
    fireEvent.click(stepButton(2));
    expect(progress()).toBe('1');
    fireEvent.click(screen.getByLabelText('Cyber security'));
    expect(screen.queryByTestId('wizard-use-case-error')).toBeNull();
    fireEvent.click(stepButton(2));
    expect(progress()).toBe('2');
    expect(stepButton(3).disabled).toBe(false);
    // back freely, the choice kept
    fireEvent.click(stepButton(1));
    expect(progress()).toBe('1');
    expect((screen.getByLabelText('Cyber security') as HTMLInputElement).checked).toBe(true);
    next();
    next();
    expect(screen.getByTestId('wizard-graph-db-error').textContent).toBe('Choose a graph database to continue.');
    fireEvent.click(screen.getByLabelText('Neo4j'));
    fireEvent.click(stepButton(3));
    expect(progress()).toBe('3');
  });

  it('prefills the names by splitting the invited full name at its first space, and holds the password to the rule', async () => {
    const { api } = await openAtPasswordStep();
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Jean');
    expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe('Pierre Martin');
    expect(screen.getByText(/At least 15 characters/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'other' } });
    next();
    expect(
      await screen.findByText(/at least 15 characters/i, { selector: '.mantine-InputWrapper-error' }),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'End-user licence agreement' })).toBeNull();
    expect(api.calls(`POST /api/signup/${KEY}/confirm`)).toHaveLength(0);
  });

  it('refuses a password made of the address, the names or the company before sending (decision 085)', async () => {
    const { api } = await openAtPasswordStep();
    const password = await screen.findByLabelText('Password');
    fireEvent.change(password, { target: { value: 'Graphes-SA-Jean-2026!' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Graphes-SA-Jean-2026!' } });
    next();
    expect(
      await screen.findByText("The password must not be made of your e-mail address, your name or the portal's name.", {
        selector: '.mantine-InputWrapper-error',
      }),
    ).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(screen.queryByRole('region', { name: 'End-user licence agreement' })).toBeNull();
    expect(api.calls(`POST /api/signup/${KEY}/confirm`)).toHaveLength(0);
  });

  it('brings a password the server finds common back to its field, with the focus on it', async () => {
    const { api } = open(() =>
      apiError(400, 'validation_error', 'password: too easy', [{ path: 'password', message: 'password.error.common' }]),
    );
    await throughTheSteps();
    await acceptLegalTexts();
    await waitFor(() => expect(api.calls(`POST /api/signup/${KEY}/confirm`)).toHaveLength(1));
    const password = await screen.findByLabelText('Password');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(
      screen.getByText(/The password is too easy to guess/, { selector: '.mantine-InputWrapper-error' }),
    ).toBeTruthy();
    expect(screen.queryByTestId('signup-confirm-error')).toBeNull();
  });

  it('goes through the EULA and the GDPR notice, sends the confirmation by itself, and opens the new customer', async () => {
    const { api, queryClient } = open();
    await throughTheSteps();
    await acceptLegalTexts();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/en/accounts/42'));
    expect(api.calls(`POST /api/signup/${KEY}/confirm`).map((call) => call.body)).toEqual([
      {
        firstName: 'Jean',
        lastName: 'Pierre Martin',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        useCase: 'knowledge-management',
        graphDB: 'neptune',
      },
    ]);
    expect(queryClient.getQueryData<Profile>(['auth', 'me'])?.accountsTotal).toBe(1);
    expect(storage.get('customer')).toBe('42');
  });

  it('says why a confirmation failed and tries again on request', async () => {
    const answers: FakeAnswer[] = [
      apiError(503, 'service_unavailable', 'unavailable'),
      { status: 200, body: { customerId: 42 } },
    ];
    const { api } = open(() => answers.shift()!);
    await throughTheSteps();
    await acceptLegalTexts();
    const failure = await screen.findByTestId('signup-confirm-error');
    expect(failure.textContent).toBe(
      'Your account could not be created: The portal is unavailable for a moment. Please try again in a few seconds.',
    );
    fireEvent.click(screen.getByTestId('signup-confirm-retry'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/en/accounts/42'));
    expect(api.calls(`POST /api/signup/${KEY}/confirm`)).toHaveLength(2);
  });

  it('ends on the error page when the link was spent meanwhile', async () => {
    open(() => apiError(410, 'signup_confirmed', 'confirmed'));
    await throughTheSteps();
    await acceptLegalTexts();
    expect(await screen.findByRole('heading', { level: 1, name: 'Error 410' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'This sign-up has already been confirmed: sign in to reach your account.',
    );
  });

  it('links to contact, help and sign-in', async () => {
    open();
    const help = await screen.findByTestId('signup-help');
    expect((await within(help).findByRole('link', { name: 'Contact us' })).getAttribute('href')).toBe(
      'mailto:support@example.com',
    );
    expect(within(help).getByRole('link', { name: 'Help center' }).getAttribute('href')).toBe(
      'https://support.example.com',
    );
    expect(within(help).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/en/login');
  });
});
