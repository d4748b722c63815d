import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../../common/domain';
import { createI18n } from '../../../i18n';
import { subscriptionPhrase } from './subscription-phrase';

describe('subscriptionPhrase: the subscription block’s status phrase (spec 2)', () => {
  const phrase = (status: PaymentStatus | null, locale: 'en' | 'fr' = 'en', dates = true) =>
    subscriptionPhrase(
      {
        selfService: true,
        status,
        currentPeriodEnd: dates ? '2031-03-09T10:00:00Z' : null,
        graceUntil: dates ? '2031-03-12T10:00:00Z' : null,
      },
      createI18n(locale).t,
      locale,
    );

  it('has one phrase per status, in both languages', () => {
    for (const locale of ['en', 'fr'] as const) {
      const phrases = [null, ...PAYMENT_STATUSES].map((status) => phrase(status, locale));
      expect(new Set(phrases).size, locale).toBe(phrases.length);
      for (const text of phrases) expect(text, locale).not.toMatch(/billing\./);
    }
  });

  it('gives the date that matters: the trial’s end, the renewal, the end of grace, the end of a subscription set to end', () => {
    expect(phrase('trial')).toBe('Free trial until 09 Mar 2031');
    expect(phrase('trial', 'fr')).toBe('Essai gratuit jusqu’au 09 mars 2031');
    expect(phrase('paid')).toBe('Active, renews on 09 Mar 2031');
    expect(phrase('grace')).toBe('Payment failed: the service runs until 12 Mar 2031');
    expect(phrase('toBeCanceled')).toBe('Ends on 09 Mar 2031');
    expect(phrase('toBeCanceled', 'fr')).toBe('Se termine le 09 mars 2031');
    expect(phrase('paid', 'en', false)).toBe('Active');
    expect(phrase('trial', 'en', false)).toBe('Free trial');
    expect(phrase(null)).toBe('No subscription yet');
  });

  it('says a sales-led customer’s subscription is managed with the account executive', () => {
    const t = createI18n('en').t;
    expect(
      subscriptionPhrase({ selfService: false, status: null, currentPeriodEnd: null, graceUntil: null }, t, 'en'),
    ).toBe('Managed with your account executive');
  });
});
