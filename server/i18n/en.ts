/**
 * Server-side texts in English (mails now; notifications later). Keys with _one/_other are plurals,
 * chosen by i18next from `count` with the language's plural rules.
 */
export const en = {
  /** What breaks a customization's configuration (server/modules/customizations/schemas.ts). */
  configProblems: {
    required: 'is required',
    unknownProperty: 'is not a known property',
    unknownPropertyKnown: 'is not a known property (known: {{known}})',
    type: 'must be {{types}}',
    or: ' or ',
    typeNames: {
      string: 'a text',
      integer: 'a whole number',
      number: 'a number',
      boolean: 'true or false',
      object: 'an object',
      array: 'a list',
      null: 'null',
    },
    enum: 'must be one of {{values}}',
    pattern: 'does not have the expected form',
    patterns: {
      color: 'must be a colour in hexadecimal form, like #1a73e8',
      httpsUrl: 'must be an https:// URL',
      pluginName: 'must be a package name: lowercase letters, digits and dashes',
      semVer: 'must be a version like 2.1.0',
      domain: 'must be a host name like app.example.com or *.example.com',
    },
    format: 'must be a valid {{format}}',
    formatNames: { uri: 'URL' },
    minLength: 'must be at least {{limit}} characters long',
    maxLength: 'must be at most {{limit}} characters long',
    minimum: 'must be at least {{limit}}',
    maximum: 'must be at most {{limit}}',
    exclusiveMinimum: 'must be more than {{limit}}',
    exclusiveMaximum: 'must be less than {{limit}}',
    minItems: 'must hold at least {{limit}} item(s)',
    maxItems: 'must hold at most {{limit}} items',
    uniqueItems: 'must not repeat an item (items {{j}} and {{i}} are the same)',
    invalid: 'is invalid',
  },
  duration: {
    hours_one: '{{count}} hour',
    hours_other: '{{count}} hours',
    days_one: '{{count}} day',
    days_other: '{{count}} days',
  },
  /** a download's platform, as the mails name it (the client's downloads.platforms) */
  platforms: {
    windows: 'Windows',
    linux: 'Linux',
    osx: 'macOS',
    docker: 'Docker',
    npm: 'npm',
    generic: 'any platform',
    unknown: 'an unknown platform',
  },
  /** the Atom feed of a licence's versions (server/modules/downloads/feed.ts) */
  feed: {
    title: '{{productName}}: new versions',
    subtitle: 'The published versions of {{productName}} that your licence allows ({{accessLevel}}), newest first.',
    accessLevels: {
      stable: 'stable versions',
      beta: 'stable and beta versions',
      alpha: 'stable, beta and alpha versions',
    },
    entryTitle: '{{productName}} {{semVer}}: {{title}}',
    file: '{{fileName}} ({{platform}})',
    checksums: 'Checksums (SHA256SUMS)',
    types: {
      eol: 'End of life',
      maintenance: 'Maintenance',
      stable: 'Stable',
      beta: 'Pre-release (beta)',
      alpha: 'Pre-release (alpha)',
    },
  },
  roles: {
    accountExecutive: 'account executive',
    businessOwner: 'project manager',
    technicalContact: 'technical contact',
    endUser: 'end user',
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
    emailChangeConfirm: {
      subject: 'Confirm your new e-mail address',
      intro:
        'You asked to use this address for your account on the customer portal. It takes effect once you confirm it.',
      action: 'Confirm this address',
      ignore: 'If you did not ask for this, ignore this message: nothing changes.',
    },
    emailChangeTaken: {
      subject: 'Your e-mail address on the customer portal',
      greeting: 'Hello,',
      intro:
        'Someone asked to move another account of the customer portal to this address. This address already has its own account, so nothing was changed.',
      action: 'Sign in to your account',
      after: 'If you cannot sign in, use “Forgot your password?” on the sign-in page.',
    },
    twoFactorReset: {
      subject: 'The second factors of your account were removed',
      intro:
        'An administrator of the customer portal removed the passkeys, the authenticator app and the recovery codes of your account. You now sign in with your password alone until you add a second factor again on your settings page.',
      ifNotYou: 'If you did not ask for this, choose a new password now and tell your portal contact.',
      action: 'Sign in',
    },
    emailChangeNotice: {
      subject: 'A change of your e-mail address was requested',
      intro:
        'A change of your account’s e-mail address to {{newEmail}} was requested on the customer portal. It takes effect only when the link sent to that address is followed.',
      ifNotYou: 'If you did not ask for this, choose a new password now and tell your portal contact.',
      action: 'Choose a new password',
    },
    invitation: {
      subject: 'You are invited to join {{customerName}} on the customer portal',
      intro: '{{inviterFullName}} invites you to join {{customerName}} on the customer portal as {{role}}.',
      introNoInviter: 'You are invited to join {{customerName}} on the customer portal as {{role}}.',
      action: 'Accept the invitation',
      validity: 'This invitation is valid for {{validity}}.',
      ignore: 'If you do not expect this invitation, you can ignore this message.',
    },
    signupConfirmation: {
      subject: 'Confirm your sign-up to the customer portal',
      intro:
        'Thank you for signing up {{companyName}} for a trial. Confirm your e-mail address to choose your use case, set your password and get your cloud instance.',
      action: 'Confirm my sign-up',
      validity: 'This link is valid for {{validity}} and can be used once.',
      ignore: 'If you did not sign up, you can ignore this message: nothing is created without your confirmation.',
    },
    invitationAccepted: {
      subject: '{{memberFullName}} joined {{customerName}}',
      intro: '{{memberFullName}} ({{memberEmail}}) accepted the invitation and joined {{customerName}} as {{role}}.',
      action: 'See the team',
      settings: 'You receive this message because invitation notices are on in your settings.',
    },
    settingsLine: 'To stop these messages, change your notification settings: {{link}}',
    licenseExpiresSoon: {
      subject: 'The licence of {{productName}} for {{customerName}} expires on {{endDate}}',
      intro:
        'The licence of {{productName}} held by {{customerName}} ends on {{endDate}}. Renew it to keep downloading new versions.',
      action: 'See the licence',
      settings: 'You receive this message because notices of licences about to expire are on in your settings.',
    },
    licenseExpired: {
      subject: 'The licence of {{productName}} for {{customerName}} has expired',
      intro: 'The licence of {{productName}} held by {{customerName}} ended on {{endDate}}.',
      action: 'See the licence',
      settings: 'You receive this message because notices of expired licences are on in your settings.',
    },
    productDownloadDigest: {
      subject_one: '{{count}} download for {{customerName}}',
      subject_other: '{{count}} downloads for {{customerName}}',
      intro: 'These files were downloaded under the licences of {{customerName}}:',
      line: '{{at}}: {{productName}} {{semVer}} ({{platform}}), by {{by}}',
      anonymous: 'anonymous, by secret URL',
      action: 'See the customer',
      settings: 'You receive this message because download notices are on in your settings.',
    },
    firstProductDownload: {
      subject: 'First download of {{productName}} for {{customerName}}',
      intro:
        '{{productName}} was downloaded for the first time under the licence of {{customerName}}: version {{semVer}} for {{platform}}, by {{by}}.',
      action: 'See the customer',
      settings: 'You receive this message because first-download notices are on in your settings.',
    },
    newVersion: {
      subject: '{{productName}} {{semVer}} is available',
      intro: 'A new version of {{productName}} is available to download: {{semVer}}.',
      action: 'See the versions',
      settings: 'You receive this message because new-version notices are on in your settings.',
    },
    newProductLicense: {
      subject: 'New licence for {{customerName}}: {{productName}}',
      intro: '{{customerName}} has a new licence: {{productName}}.',
      action: 'See the licences',
      settings: 'You receive this message because new-licence notices are on in your settings.',
    },
    emailError: {
      subject: 'An e-mail to {{email}} could not be delivered',
      intro:
        'An e-mail of the customer portal to {{email}}, a member of {{customerName}}, could not be delivered: {{error}}',
      check: 'Please check that this address is right and can receive mail.',
      action: 'See the team',
      settings: 'You receive this message because e-mail error notices are on in your settings.',
    },
    paymentGrace: {
      subject: 'The payment for {{customerName}} failed',
      intro: 'The last card payment of the subscription of {{customerName}} failed.',
      until_one:
        'The service keeps running until {{graceUntil}} (in {{count}} day). If no payment comes by then, access may be lost and the data deleted.',
      until_other:
        'The service keeps running until {{graceUntil}} (in {{count}} days). If no payment comes by then, access may be lost and the data deleted.',
      action: 'Update the payment method',
      after: 'You receive this message as a project manager or the account executive of this customer.',
    },
    instanceArchived: {
      subject: 'The cloud instance {{instanceName}} of {{customerName}} is disabled',
      intro:
        'The subscription of {{customerName}} remained unpaid after its grace period, so its cloud instance {{instanceName}} has been archived: it no longer answers.',
      deletion_one: 'Its data will be deleted in {{count}} day, on {{deleteOn}}.',
      deletion_other: 'Its data will be deleted in {{count}} days, on {{deleteOn}}.',
      restore: 'Pay the subscription before then and the instance comes back as it was.',
      action: 'See the account',
    },
    instanceDataDeleted: {
      subject: 'The data of the cloud instance {{instanceName}} of {{customerName}} is being deleted',
      intro:
        'The cloud instance {{instanceName}} of {{customerName}} stayed archived until its data deletion date: its data is now being deleted.',
      after: 'It can no longer be restored. Contact your account executive to start a new instance.',
      action: 'See the account',
    },
  },
  /** The OpenID Connect provider's own pages (server/modules/oidc/pages.ts). */
  oidc: {
    logoutTitle: 'Sign out',
    logoutQuestion: 'Do you want to sign out of the portal?',
    logoutQuestionClient: 'Do you want to sign out of the portal and {{client}}?',
    logoutConfirm: 'Sign out',
    logoutStay: 'Stay signed in',
    errorTitle: 'The sign-in could not be completed',
    errorText:
      'The site that sent you here made a request the portal cannot accept. Go back to that site and try again.',
    errorCode: 'Error: {{code}}',
    home: 'Go to the portal',
  },
  /** The page that hands a signed-in user to the support desk (modules/sso/page.ts). */
  supportDesk: {
    title: 'Support',
    heading: 'Signing you in to the support site…',
    noScript: 'Scripts are turned off in this browser: continue with the button.',
    continue: 'Continue to the support site',
    unavailableTitle: 'No support site here',
    unavailableHeading: 'Signing in to a support site is not offered here',
    unavailableText:
      'This portal is not connected to a support site. Your licences and downloads are in the portal itself.',
    home: 'Go to the portal',
    portal: 'Graph Portal',
  },
};

/** The shape every language follows: the same keys, any text (plural keys may differ by language). */
export type ServerTexts = typeof en;
