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
  roles: {
    accountExecutive: 'responsable de compte',
    businessOwner: 'chef de projet',
    technicalContact: 'contact technique',
    endUser: 'utilisateur final',
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
    emailChangeConfirm: {
      subject: 'Confirmez votre nouvelle adresse e-mail',
      intro:
        'Vous avez demandé à utiliser cette adresse pour votre compte sur le portail client. Le changement prendra effet une fois l’adresse confirmée.',
      action: 'Confirmer cette adresse',
      ignore: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : rien ne change.',
    },
    emailChangeTaken: {
      subject: 'Votre adresse e-mail sur le portail client',
      greeting: 'Bonjour,',
      intro:
        'Quelqu’un a demandé à déplacer un autre compte du portail client vers cette adresse. Cette adresse a déjà son propre compte : rien n’a été modifié.',
      action: 'Se connecter à votre compte',
      after: 'Si vous ne pouvez pas vous connecter, utilisez « Mot de passe oublié ? » sur la page de connexion.',
    },
    emailChangeNotice: {
      subject: 'Un changement de votre adresse e-mail a été demandé',
      intro:
        'Le changement de l’adresse e-mail de votre compte en {{newEmail}} a été demandé sur le portail client. Il ne prendra effet que si le lien envoyé à cette adresse est suivi.',
      ifNotYou:
        'Si vous n’êtes pas à l’origine de cette demande, choisissez dès maintenant un nouveau mot de passe et prévenez votre contact sur le portail.',
      action: 'Choisir un nouveau mot de passe',
    },
    invitation: {
      subject: 'Vous êtes invité à rejoindre {{customerName}} sur le portail client',
      intro: '{{inviterFullName}} vous invite à rejoindre {{customerName}} sur le portail client en tant que {{role}}.',
      introNoInviter: 'Vous êtes invité à rejoindre {{customerName}} sur le portail client en tant que {{role}}.',
      action: 'Accepter l’invitation',
      validity: 'Cette invitation est valable {{validity}}.',
      ignore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer ce message.',
    },
    invitationAccepted: {
      subject: '{{memberFullName}} a rejoint {{customerName}}',
      intro:
        '{{memberFullName}} ({{memberEmail}}) a accepté l’invitation et a rejoint {{customerName}} en tant que {{role}}.',
      action: 'Voir l’équipe',
      settings: 'Vous recevez ce message car les avis d’invitation sont activés dans vos paramètres.',
    },
  },
};
