import { useEffect, useRef, useState } from 'react';
import { ERROR_CODES } from '../../../common/api/errors';
import { SignupBody } from '../../../common/api/signup';
import { ApiError } from '../../api/client';
import { type SignupOutcome, signUp, signupOutcomeOf } from '../../api/signup';
import { usePageTitle } from '../../app/title';
import { apiErrorText } from '../../components/forms';
import { useSchemaForm } from '../../components/use-schema-form';
import { useTranslation } from '../../i18n/use-translation';
import { PublicLink, usePublicLocalize, usePublicRouter } from '../../public/router';
import { useAction, usePublicConfig } from '../../public/session';
import { Button, TextField } from '../../public/ui';
import { TrialCarousel } from './Carousel';

type Field = 'firstName' | 'lastName' | 'email' | 'companyName' | 'jobTitle';
type Values = Record<Field, string>;

/** A sentence with one link in it: the text's `{{link}}` is where the link goes. */
function WithLink({ text, link }: { text: string; link: React.ReactNode }) {
  const [before, after = ''] = text.split('{{link}}');
  return (
    <>
      {before}
      {link}
      {after}
    </>
  );
}

/** The screen that replaces the form (spec 4 "Signup"); its heading takes the focus, so it is read. */
function OutcomeScreen({
  outcome,
  email,
  error,
  onRetry,
}: {
  outcome: SignupOutcome;
  email: string;
  error: unknown;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  const config = usePublicConfig().data;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const login = (
    <PublicLink to={localize('/login')} className="p-button" data-variant="light" data-testid="signup-login">
      {t('signUp.login')}
    </PublicLink>
  );
  return (
    <div className="p-stack" data-testid={`signup-outcome-${outcome}`}>
      <h2 className="p-title" ref={heading} tabIndex={-1}>
        {t(`signUp.${outcome}.title`)}
      </h2>
      {outcome === 'success' && <p>{t('signUp.success.text', { email })}</p>}
      {outcome === 'pending' && (
        <>
          <p>{t('signUp.pending.text', { email })}</p>
          <div className="p-group">{login}</div>
        </>
      )}
      {outcome === 'existingUser' && (
        <>
          <p>{t('signUp.existingUser.text')}</p>
          <div className="p-group">
            {login}
            {config && (
              <a href={config.supportUrl} className="p-anchor" target="_blank" rel="noreferrer">
                {t('signUp.existingUser.support')}
              </a>
            )}
          </div>
        </>
      )}
      {outcome === 'generic' && (
        <>
          <p role="alert">{t('signUp.generic.text', { error: apiErrorText(error, t) })}</p>
          <div className="p-group">
            <Button variant="light" onClick={onRetry} data-testid="signup-retry">
              {t('signUp.generic.retry')}
            </Button>
            {config && (
              <a href={`mailto:${config.contactEmail}`} className="p-anchor">
                {t('signUp.generic.sales')}
              </a>
            )}
          </div>
        </>
      )}
    </div>
  );
}

/**
 * /{locale}/sign-up (spec 2, docs/decisions/067), one of the light pages: the trial's steps on the
 * left (stacked above on a phone), the form on the right, replaced by its outcome's screen once sent.
 * It is for visitors: PublicApp sends a signed-in user to their start page. A portal that offers no
 * self-service (SELF_SERVICE_SIGNUP off, whose sign-up routes answer 404) says so, with the way to sign in.
 */
export function SignUpPage() {
  const config = usePublicConfig().data;
  return config?.selfServiceSignup === false ? <SignUpUnavailable /> : <SignUpForm />;
}

function SignUpUnavailable() {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  const title = t('signUp.unavailable.title');
  usePageTitle(title);
  return (
    <div className="p-stack p-error-page" data-testid="signup-unavailable">
      <h1 className="p-title">{title}</h1>
      <p>{t('signUp.unavailable.text')}</p>
      <PublicLink to={localize('/login')} className="p-anchor">
        {t('signUp.login')}
      </PublicLink>
    </div>
  );
}

function SignUpForm() {
  const { t } = useTranslation();
  const { locale } = usePublicRouter();
  const localize = usePublicLocalize();
  usePageTitle(t('signUp.heading'));
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: { firstName: '', lastName: '', email: '', companyName: '', jobTitle: '' },
    schema: SignupBody,
    options: { validateInputOnBlur: ['email'] },
  });
  const [outcome, setOutcome] = useState<{ kind: SignupOutcome; email: string; error?: unknown } | null>(null);
  const send = useAction((values: Values) => signUp(SignupBody.parse({ ...values, locale })), {
    onSuccess: () => setOutcome({ kind: 'success', email: form.getValues().email.trim() }),
    onError: (error) => {
      // a field the server refused stays on the form, with its message
      if (error instanceof ApiError && error.code === ERROR_CODES.validation && error.details.length > 0) {
        showFieldErrors(error);
        return;
      }
      setOutcome({ kind: signupOutcomeOf(error), email: form.getValues().email.trim(), error });
    },
  });
  const field = (name: Field) => ({ name, required: true, ...form.getInputProps(name) });

  return (
    <div className="p-signup">
      <TrialCarousel />
      <div className="p-card p-stack p-signup-panel">
        <h1 className="p-title">{t('signUp.heading')}</h1>
        {outcome ? (
          <OutcomeScreen
            outcome={outcome.kind}
            email={outcome.email}
            error={outcome.error}
            onRetry={() => setOutcome(null)}
          />
        ) : (
          <>
            <p className="p-text-sm">{t('signUp.intro')}</p>
            <form ref={ref} onSubmit={onSubmit((values) => send.run(values))} noValidate className="p-stack-sm">
              <div className="p-signup-names">
                <TextField label={t('signUp.firstName')} autoComplete="given-name" {...field('firstName')} />
                <TextField label={t('signUp.lastName')} autoComplete="family-name" {...field('lastName')} />
              </div>
              <TextField label={t('signUp.email')} type="email" autoComplete="email" {...field('email')} />
              <TextField label={t('signUp.companyName')} autoComplete="organization" {...field('companyName')} />
              <TextField label={t('signUp.jobTitle')} autoComplete="organization-title" {...field('jobTitle')} />
              <p className="p-text-sm">
                <WithLink
                  text={t('signUp.privacy')}
                  link={
                    <a href={localize('/privacy-policy')} className="p-underline" data-testid="signup-privacy">
                      {t('signUp.privacyLink')}
                    </a>
                  }
                />
              </p>
              {/* Spec: submit is disabled while submitting. */}
              <Button type="submit" loading={send.pending} disabled={send.pending} fullWidth>
                {t('signUp.submit')}
              </Button>
            </form>
            <p className="p-text-sm">
              {t('signUp.haveAccount')}{' '}
              <PublicLink to={localize('/login')} className="p-anchor">
                {t('signUp.login')}
              </PublicLink>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
