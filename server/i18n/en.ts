/**
 * Server-side texts in English (mails now; notifications later). Keys with _one/_other are plurals,
 * chosen by i18next from `count` with the language's plural rules.
 */
export const en = {
  duration: {
    hours_one: '{{count}} hour',
    hours_other: '{{count}} hours',
    days_one: '{{count}} day',
    days_other: '{{count}} days',
  },
  mail: {
    greeting: 'Hello {{fullName}},',
    actionLine: '{{action}}: {{link}}',
    linkOnce: 'This link is valid for {{validity}} and can be used once.',
    signature: 'The customer portal team',
    passwordReset: {
      subject: 'Reset your password',
      intro: 'We received a request to reset the password of your account on the customer portal.',
      action: 'Choose a new password',
      ignore: 'If you did not ask for this, you can ignore this message: your password stays as it is.',
    },
    accountCreated: {
      subject: 'Your account on the customer portal',
      intro: 'An account has been created for you on the customer portal. To sign in, first choose your password.',
      action: 'Choose my password',
    },
  },
};

/** The shape every language follows: the same keys, any text (plural keys may differ by language). */
export type ServerTexts = typeof en;
