import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { LoginBody, type Profile } from '../../../common/api/auth';
import type { SecondFactorMethod } from '../../../common/api/two-factor';
import { CAPTCHA_REQUIRED_STATUS, STORAGE_KEYS } from '../../../common/constants';
import { login } from '../../api/auth';
import { ApiError } from '../../api/client';
import { storage } from '../../app/storage';
import { usePageTitle } from '../../app/title';
import { Captcha } from '../../components/captcha/Captcha';
import { CookieNotice } from '../../components/CookieNotice';
import { apiErrorText, namesField } from '../../components/forms';
import { useSchemaForm } from '../../components/use-schema-form';
import { pageLoad, PublicLink, usePublicLocalize, usePublicRouter } from '../../public/router';
import { loginSuccessTarget, useAction, usePublicConfig } from '../../public/session';
import { Alert, Button, Card, DelayedLoader, TextField } from '../../public/ui';
import { takeSsoTarget } from './sso-target';

// Only accounts with a second factor need these: loaded when the password step asks for one, or
// when the passkey button is pressed.
const SecondFactorStep = lazy(() => import('./SecondFactorStep').then((m) => ({ default: m.SecondFactorStep })));
const secondFactorModule = () => import('./SecondFactorStep');

interface Values extends Record<string, unknown> {
  email: string;
  password: string;
}

/** What another page may hand the login page: the address just used, after a password reset. */
export interface LoginLocationState {
  email?: string;
  /** The password was just changed: the page says so. */
  passwordChanged?: boolean;
}

export function LoginPage() {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  const { location } = usePublicRouter();
  usePageTitle(t('login.pageTitle'));
  const config = usePublicConfig().data;
  const given = (location.state as LoginLocationState | null) ?? {};
  const givenEmail = given.email ?? '';
  // Read after the first render: the page drawn at build time knows neither the address's ?sso= nor
  // what the browser stored, and its hydration must draw the same markup (decision 024).
  const [ssoTarget, setSsoRedirect] = useState<string | null>(null);
  useEffect(() => setSsoRedirect(takeSsoTarget(location.search)), [location.search]);
  // Without a support desk set up there is no support site to sign in to: no switch, no target kept.
  const supportDesk = config?.supportDesk !== false;
  const ssoRedirect = supportDesk ? ssoTarget : null;
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: { email: givenEmail, password: '' },
    schema: LoginBody,
  });
  const [captchaShown, setCaptchaShown] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [feedback, setFeedback] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  function onCaptcha(response: string | null) {
    setCaptcha(response);
    if (response) setFeedback(null);
  }

  function toggleSso() {
    if (ssoRedirect) {
      storage.remove(STORAGE_KEYS.ssoRedirect);
      setSsoRedirect(null);
    } else {
      const target = config?.supportUrl || '/';
      storage.set(STORAGE_KEYS.ssoRedirect, target);
      setSsoRedirect(target);
    }
  }

  const [secondStep, setSecondStep] = useState<SecondFactorMethod[] | null>(null);

  /** Once the session exists (after the password, or its second step, or a passkey alone). */
  function signedIn(profile: Profile) {
    // Spec 4 "Login success": back to the relying party, on to the support site, else into the
    // application (a page load: the signed-in application is another page, decision 024).
    setLeaving(true);
    pageLoad.assign(loginSuccessTarget(profile, location.search, ssoRedirect));
  }

  const signIn = useAction((body: LoginBody) => login(LoginBody.parse(body)), {
    onSuccess: (result) => {
      if ('secondFactor' in result) setSecondStep(result.secondFactor.methods);
      else signedIn(result);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === CAPTCHA_REQUIRED_STATUS) {
        setCaptchaShown(true);
        setFeedback(t('login.captchaRequired'));
      } else {
        // The refusal says when the next attempt needs the captcha: it shows now, not after a 420.
        if (namesField(error, 'recaptchaResponse')) setCaptchaShown(true);
        setFeedback(t('login.error', { error: apiErrorText(error, t) }));
        showFieldErrors(error);
      }
      // Each captcha answer is accepted once; a new attempt needs a new one.
      setCaptcha(null);
      setCaptchaKey((key) => key + 1);
    },
  });

  const passkey = useAction(async () => (await secondFactorModule()).signInWithPasskey(), {
    onSuccess: signedIn,
    onError: (error) => {
      void secondFactorModule().then((m) => setFeedback(m.passkeyErrorText(error, t)));
    },
  });

  function send(values: Values) {
    if (captchaShown && !captcha) {
      setFeedback(t('login.captchaRequired'));
      return;
    }
    setFeedback(null);
    signIn.run({ ...values, recaptchaResponse: captcha ?? undefined });
  }

  return (
    <div className="p-page p-stack">
      <Card>
        <h1 className="p-title">{ssoRedirect ? t('login.titleSupport') : t('login.titleDownloadCenter')}</h1>
        {supportDesk && (
          // its place is kept while the configuration is on its way, so that nothing below moves
          <div style={config ? undefined : { visibility: 'hidden' }}>
            <Button variant="light" size="compact" onClick={toggleSso} data-testid="login-sso-switch">
              {ssoRedirect ? t('login.switchToDownloadCenter') : t('login.switchToSupport')}
            </Button>
          </div>
        )}
        {given.passwordChanged && !feedback && (
          <Alert color="teal" role="status" data-testid="login-notice">
            {t('resetPassword.success')}
          </Alert>
        )}
        {secondStep ? (
          <Suspense fallback={<DelayedLoader />}>
            <SecondFactorStep
              methods={secondStep}
              onSignedIn={signedIn}
              onRestart={() => {
                setSecondStep(null);
                form.setFieldValue('password', '');
              }}
            />
          </Suspense>
        ) : (
          <form ref={ref} onSubmit={onSubmit(send)} noValidate className="p-stack-sm">
            <TextField
              label={t('login.email')}
              type="email"
              name="email"
              autoComplete="username"
              autoFocus={!givenEmail}
              {...form.getInputProps('email')}
            />
            <TextField
              label={t('login.password')}
              type="password"
              name="password"
              autoComplete="current-password"
              autoFocus={Boolean(givenEmail)}
              {...form.getInputProps('password')}
            />
            {captchaShown && <Captcha key={captchaKey} onChange={onCaptcha} />}
            {feedback && (
              <Alert color="red" role="alert" data-testid="login-error">
                {feedback}
              </Alert>
            )}
            <Button type="submit" loading={signIn.pending || leaving} fullWidth>
              {t('login.submit')}
            </Button>
            <Button
              variant="light"
              loading={passkey.pending}
              fullWidth
              onClick={() => {
                setFeedback(null);
                passkey.run(undefined);
              }}
              data-testid="login-passkey"
            >
              {t('login.signInWithPasskey')}
            </Button>
          </form>
        )}
        <div className="p-group">
          <PublicLink to={localize('/password-lost')} className="p-anchor p-anchor-sm">
            {t('login.forgotPassword')}
          </PublicLink>
          <PublicLink to={localize('/cookies-information')} className="p-anchor p-anchor-sm">
            {t('login.cookiesInformation')}
          </PublicLink>
        </div>
        {config?.selfServiceSignup && (
          <p className="p-text-sm" data-testid="login-sign-up">
            {t('login.noAccount')}{' '}
            <PublicLink to={localize('/sign-up')} className="p-anchor">
              {t('login.signUp')}
            </PublicLink>
          </p>
        )}
        {config?.devMailbox && (
          <a href="/dev/mailbox" className="p-anchor p-anchor-sm" data-testid="dev-mailbox-link">
            {t('login.devMailbox')}
          </a>
        )}
      </Card>
      <CookieNotice />
    </div>
  );
}
