import { useEffect, useState } from 'react';
import { CONSENT_SCOPES, type InteractionDetails } from '../../../common/api/oidc';
import { ApiError } from '../../api/client';
import { getInteraction, grantInteraction, refuseInteraction } from '../../api/oidc';
import { usePageTitle } from '../../app/title';
import { useTranslation } from '../../i18n/use-translation';
import { pageLoad, usePublicLocalize, usePublicRouter } from '../../public/router';
import { interactionOf } from '../../public/session';
import { Alert, Button, Card, DelayedLoader } from '../../public/ui';

/** The scopes the page names in words; another one is shown by its name. */
const NAMED_SCOPES = new Set<string>(CONSENT_SCOPES);

/**
 * A relying party that is not the vendor's own asks to sign the user in (docs/oidc.md): what it
 * asks for, and the choice. The provider continues at the address the answer gives.
 */
export function ConsentPage() {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  const { location } = usePublicRouter();
  usePageTitle(t('consent.pageTitle'));
  const uid = interactionOf(location.search);
  const [details, setDetails] = useState<InteractionDetails | null>(null);
  const [failed, setFailed] = useState(uid === null);
  const [leaving, setLeaving] = useState<'grant' | 'refuse' | null>(null);

  useEffect(() => {
    if (!uid) return;
    getInteraction(uid).then(setDetails, (error: unknown) => {
      // signed out meanwhile: sign in again, the interaction kept
      if (error instanceof ApiError && error.status === 401) {
        pageLoad.replace(`${localize('/login')}?interaction=${encodeURIComponent(uid)}`);
      } else setFailed(true);
    });
  }, [uid, localize]);

  function answer(choice: 'grant' | 'refuse') {
    if (!uid) return;
    setLeaving(choice);
    (choice === 'grant' ? grantInteraction(uid) : refuseInteraction(uid)).then(
      ({ location: next }) => pageLoad.assign(next),
      () => {
        setLeaving(null);
        setFailed(true);
      },
    );
  }

  if (failed) {
    return (
      <div className="p-page p-stack">
        <Card>
          <h1 className="p-title">{t('consent.title')}</h1>
          <Alert color="red" role="alert" data-testid="consent-error">
            {t('consent.expired')}
          </Alert>
        </Card>
      </div>
    );
  }
  if (!details) return <DelayedLoader />;
  return (
    <div className="p-page p-stack">
      <Card>
        <h1 className="p-title">{t('consent.title')}</h1>
        <p>{t('consent.asks', { client: details.clientName })}</p>
        <ul className="p-stack-sm" data-testid="consent-scopes">
          {details.scopes.map((scope) => (
            <li key={scope}>{NAMED_SCOPES.has(scope) ? t(`consent.scopes.${scope}`) : scope}</li>
          ))}
        </ul>
        <div className="p-group">
          <Button onClick={() => answer('grant')} loading={leaving === 'grant'} disabled={leaving !== null}>
            {t('consent.allow')}
          </Button>
          <Button
            variant="light"
            onClick={() => answer('refuse')}
            loading={leaving === 'refuse'}
            disabled={leaving !== null}
          >
            {t('consent.deny')}
          </Button>
        </div>
      </Card>
    </div>
  );
}
