import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/use-translation';
import { browser, openBillingPortal, openPaymentMethodUpdate, startCheckout } from '../../../api/billing';
import { notify } from '../../../components/notify';

/**
 * The three ways out to the payment provider (spec 4 and 8): the checkout and the payment-method page
 * replace the page, and say the spec's message when they cannot; the billing portal opens in a new
 * tab, and a danger notification says when it fails or gives no address.
 */
export function useCheckout(customerId: number) {
  return useMutation({
    mutationFn: () => startCheckout(customerId),
    onSuccess: ({ url }) => browser.assign(url),
  });
}

export function usePaymentMethodUpdate(customerId: number) {
  return useMutation({
    mutationFn: () => openPaymentMethodUpdate(customerId),
    onSuccess: ({ stripe }) => browser.assign(stripe.url),
  });
}

export function useBillingPortal(customerId: number) {
  const { t } = useTranslation();
  const mutation = useMutation({
    mutationFn: async (tab: Window | null) => ({ tab, answer: await openBillingPortal(customerId) }),
    onSuccess: ({ tab, answer }) => {
      if (!answer.url) {
        tab?.close();
        notify({ status: 'error', message: t('billing.subscription.portalFailed') });
        return;
      }
      if (tab) tab.location.href = answer.url;
      else browser.assign(answer.url);
    },
    onError: () => notify({ status: 'error', message: t('billing.subscription.portalFailed') }),
  });
  return {
    ...mutation,
    /** at the click: the tab first (else a pop-up blocker stops it), then its address */
    open: () => {
      const tab = browser.openTab();
      // the portal must not reach back into the portal's page
      if (tab) tab.opener = null;
      mutation.mutate(tab, { onError: () => tab?.close() });
    },
  };
}
