import type { ServerTexts } from './en';

/**
 * Server-side texts in French. Write an ordinary space before : ; ! ? — server/i18n turns it into the
 * no-break space French typography asks for, so a line never starts with the mark.
 */
export const fr: ServerTexts = {
  duration: {
    hours_one: '{{count}} heure',
    hours_other: '{{count}} heures',
    days_one: '{{count}} jour',
    days_other: '{{count}} jours',
  },
  mail: {
    greeting: 'Bonjour {{fullName}},',
    actionLine: '{{action}} : {{link}}',
    linkOnce: 'Ce lien est valable {{validity}} et ne peut servir qu’une fois.',
    signature: 'L’équipe du portail client',
    passwordReset: {
      subject: 'Réinitialisez votre mot de passe',
      intro: 'Nous avons reçu une demande de réinitialisation du mot de passe de votre compte sur le portail client.',
      action: 'Choisir un nouveau mot de passe',
      ignore:
        'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
    },
    accountCreated: {
      subject: 'Votre compte sur le portail client',
      intro:
        'Un compte a été créé pour vous sur le portail client. Pour vous connecter, choisissez d’abord votre mot de passe.',
      action: 'Choisir mon mot de passe',
    },
  },
};
