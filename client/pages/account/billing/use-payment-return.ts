import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { useSearchParams } from 'react-router';
import { verifySession } from '../../../api/billing';
import { customerKeys } from '../../../api/customers';
import { apiErrorText } from '../../../components/forms';
import { notify } from '../../../components/notify';

const PAYMENT_PARAM = 'payment';
const SESSION_PARAM = 'session_id';

/**
 * Spec 2 and 4: back from the checkout with `payment=success&session_id=…`, the page verifies the
 * session (the server reads it from the provider and brings the subscription up to date), reloads the
 * customer, and removes both parameters from the address, so that a reload or a shared link does not
 * verify again. Once per session id.
 */
export function usePaymentReturn(customerId: number) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sessionId = params.get(PAYMENT_PARAM) === 'success' ? params.get(SESSION_PARAM) : null;
  const verified = useRef<string | null>(null);

  useEffect(() => {
    if (!sessionId || verified.current === sessionId) return;
    verified.current = sessionId;
    const removeParams = () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(PAYMENT_PARAM);
          next.delete(SESSION_PARAM);
          return next;
        },
        { replace: true },
      );
    verifySession(sessionId)
      .then(() => queryClient.invalidateQueries({ queryKey: customerKeys.one(customerId) }))
      .catch((error: unknown) =>
        notify({ status: 'error', message: t('billing.return.failed', { error: apiErrorText(error, t) }) }),
      )
      .finally(removeParams);
  }, [sessionId, customerId, queryClient, setParams, t]);
}
