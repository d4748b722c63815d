import type { ServerTexts } from './en';

/**
 * Server-side texts in French. Write an ordinary space before : ; ! ? — server/i18n turns it into the
 * no-break space French typography asks for, so a line never starts with the mark.
 */
export const fr: ServerTexts = {
  configProblems: {
    required: 'est obligatoire',
    unknownProperty: 'n’est pas une propriété connue',
    unknownPropertyKnown: 'n’est pas une propriété connue (connues : {{known}})',
    type: 'doit être {{types}}',
    or: ' ou ',
    typeNames: {
      string: 'un texte',
      integer: 'un nombre entier',
      number: 'un nombre',
      boolean: 'true ou false',
      object: 'un objet',
      array: 'une liste',
      null: 'null',
    },
    enum: 'doit être l’une des valeurs {{values}}',
    pattern: 'n’a pas la forme attendue',
    patterns: {
      color: 'doit être une couleur en hexadécimal, comme #1a73e8',
      httpsUrl: 'doit être une URL https://',
      pluginName: 'doit être un nom de paquet : lettres minuscules, chiffres et tirets',
      semVer: 'doit être une version comme 2.1.0',
      domain: 'doit être un nom d’hôte comme app.example.com ou *.example.com',
    },
    format: 'doit être une {{format}} valide',
    formatNames: { uri: 'URL' },
    minLength: 'doit compter au moins {{limit}} caractères',
    maxLength: 'doit compter au plus {{limit}} caractères',
    minimum: 'doit valoir au moins {{limit}}',
    maximum: 'doit valoir au plus {{limit}}',
    exclusiveMinimum: 'doit valoir plus de {{limit}}',
    exclusiveMaximum: 'doit valoir moins de {{limit}}',
    minItems: 'doit contenir au moins {{limit}} élément(s)',
    maxItems: 'doit contenir au plus {{limit}} éléments',
    uniqueItems: 'ne doit pas répéter un élément (les éléments {{j}} et {{i}} sont identiques)',
    invalid: 'n’est pas valide',
  },
  duration: {
    hours_one: '{{count}} heure',
    hours_other: '{{count}} heures',
    days_one: '{{count}} jour',
    days_other: '{{count}} jours',
  },
  platforms: {
    windows: 'Windows',
    linux: 'Linux',
    osx: 'macOS',
    docker: 'Docker',
    npm: 'npm',
    generic: 'toute plateforme',
    unknown: 'une plateforme inconnue',
  },
  feed: {
    title: '{{productName}} : nouvelles versions',
    subtitle:
      'Les versions publiées de {{productName}} que votre licence permet ({{accessLevel}}), de la plus récente à la plus ancienne.',
    accessLevels: {
      stable: 'versions stables',
      beta: 'versions stables et bêta',
      alpha: 'versions stables, bêta et alpha',
    },
    entryTitle: '{{productName}} {{semVer}} : {{title}}',
    file: '{{fileName}} ({{platform}})',
    checksums: 'Sommes de contrôle (SHA256SUMS)',
    types: {
      eol: 'Fin de vie',
      maintenance: 'Maintenance',
      stable: 'Stable',
      beta: 'Préversion (bêta)',
      alpha: 'Préversion (alpha)',
    },
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
    twoFactorReset: {
      subject: 'Les seconds facteurs de votre compte ont été supprimés',
      intro:
        'Un administrateur du portail client a supprimé les clés d’accès, l’application d’authentification et les codes de secours de votre compte. Vous vous connectez désormais avec votre seul mot de passe, jusqu’à ce que vous ajoutiez de nouveau un second facteur dans vos paramètres.',
      ifNotYou:
        'Si vous n’êtes pas à l’origine de cette demande, choisissez dès maintenant un nouveau mot de passe et prévenez votre contact sur le portail.',
      action: 'Se connecter',
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
    signupConfirmation: {
      subject: 'Confirmez votre inscription au portail client',
      intro:
        'Merci d’avoir inscrit {{companyName}} à un essai. Confirmez votre adresse e-mail pour choisir votre cas d’usage, définir votre mot de passe et obtenir votre instance cloud.',
      action: 'Confirmer mon inscription',
      validity: 'Ce lien est valable {{validity}} et ne peut servir qu’une fois.',
      ignore: 'Si vous ne vous êtes pas inscrit, ignorez ce message : rien n’est créé sans votre confirmation.',
    },
    invitationAccepted: {
      subject: '{{memberFullName}} a rejoint {{customerName}}',
      intro:
        '{{memberFullName}} ({{memberEmail}}) a accepté l’invitation et a rejoint {{customerName}} en tant que {{role}}.',
      action: 'Voir l’équipe',
      settings: 'Vous recevez ce message car les avis d’invitation sont activés dans vos paramètres.',
    },
    settingsLine: 'Pour ne plus recevoir ces messages, modifiez vos paramètres de notification : {{link}}',
    licenseExpiresSoon: {
      subject: 'La licence {{productName}} de {{customerName}} expire le {{endDate}}',
      intro:
        'La licence {{productName}} de {{customerName}} prend fin le {{endDate}}. Renouvelez-la pour continuer à télécharger les nouvelles versions.',
      action: 'Voir la licence',
      settings: 'Vous recevez ce message car les avis de licences bientôt expirées sont activés dans vos paramètres.',
    },
    licenseExpired: {
      subject: 'La licence {{productName}} de {{customerName}} a expiré',
      intro: 'La licence {{productName}} de {{customerName}} a pris fin le {{endDate}}.',
      action: 'Voir la licence',
      settings: 'Vous recevez ce message car les avis de licences expirées sont activés dans vos paramètres.',
    },
    productDownloadDigest: {
      subject_one: '{{count}} téléchargement pour {{customerName}}',
      subject_other: '{{count}} téléchargements pour {{customerName}}',
      intro: 'Ces fichiers ont été téléchargés au titre des licences de {{customerName}} :',
      line: '{{at}} : {{productName}} {{semVer}} ({{platform}}), par {{by}}',
      anonymous: 'anonyme, par lien secret',
      action: 'Voir le client',
      settings: 'Vous recevez ce message car les avis de téléchargement sont activés dans vos paramètres.',
    },
    firstProductDownload: {
      subject: 'Premier téléchargement de {{productName}} pour {{customerName}}',
      intro:
        '{{productName}} a été téléchargé pour la première fois au titre de la licence de {{customerName}} : version {{semVer}} pour {{platform}}, par {{by}}.',
      action: 'Voir le client',
      settings: 'Vous recevez ce message car les avis de premier téléchargement sont activés dans vos paramètres.',
    },
    newVersion: {
      subject: '{{productName}} {{semVer}} est disponible',
      intro: 'Une nouvelle version de {{productName}} peut être téléchargée : {{semVer}}.',
      action: 'Voir les versions',
      settings: 'Vous recevez ce message car les avis de nouvelle version sont activés dans vos paramètres.',
    },
    newProductLicense: {
      subject: 'Nouvelle licence pour {{customerName}} : {{productName}}',
      intro: '{{customerName}} dispose d’une nouvelle licence : {{productName}}.',
      action: 'Voir les licences',
      settings: 'Vous recevez ce message car les avis de nouvelle licence sont activés dans vos paramètres.',
    },
    emailError: {
      subject: 'Un e-mail à {{email}} n’a pas pu être remis',
      intro: 'Un e-mail du portail client à {{email}}, membre de {{customerName}}, n’a pas pu être remis : {{error}}',
      check: 'Vérifiez que cette adresse est juste et peut recevoir du courrier.',
      action: 'Voir l’équipe',
      settings: 'Vous recevez ce message car les avis d’erreur d’e-mail sont activés dans vos paramètres.',
    },
    paymentGrace: {
      subject: 'Le paiement pour {{customerName}} a échoué',
      intro: 'Le dernier paiement par carte de l’abonnement de {{customerName}} a échoué.',
      until_one:
        'Le service reste actif jusqu’au {{graceUntil}} (dans {{count}} jour). Sans paiement d’ici là, l’accès peut être perdu et les données supprimées.',
      until_other:
        'Le service reste actif jusqu’au {{graceUntil}} (dans {{count}} jours). Sans paiement d’ici là, l’accès peut être perdu et les données supprimées.',
      action: 'Mettre à jour le moyen de paiement',
      after: 'Vous recevez ce message en tant que chef de projet ou responsable de compte de ce client.',
    },
    instanceArchived: {
      subject: 'L’instance cloud {{instanceName}} de {{customerName}} est désactivée',
      intro:
        'L’abonnement de {{customerName}} est resté impayé après sa période de grâce : son instance cloud {{instanceName}} a donc été archivée et ne répond plus.',
      deletion_one: 'Ses données seront supprimées dans {{count}} jour, le {{deleteOn}}.',
      deletion_other: 'Ses données seront supprimées dans {{count}} jours, le {{deleteOn}}.',
      restore: 'Réglez l’abonnement d’ici là et l’instance revient telle qu’elle était.',
      action: 'Voir le compte',
    },
    instanceDataDeleted: {
      subject: 'Les données de l’instance cloud {{instanceName}} de {{customerName}} sont en cours de suppression',
      intro:
        'L’instance cloud {{instanceName}} de {{customerName}} est restée archivée jusqu’à la date de suppression de ses données : elles sont maintenant supprimées.',
      after:
        'Elle ne peut plus être restaurée. Contactez votre responsable de compte pour démarrer une nouvelle instance.',
      action: 'Voir le compte',
    },
  },
  oidc: {
    logoutTitle: 'Déconnexion',
    logoutQuestion: 'Voulez-vous vous déconnecter du portail ?',
    logoutQuestionClient: 'Voulez-vous vous déconnecter du portail et de {{client}} ?',
    logoutConfirm: 'Se déconnecter',
    logoutStay: 'Rester connecté',
    errorTitle: 'La connexion n’a pas pu aboutir',
    errorText:
      'Le site qui vous a envoyé ici a fait une demande que le portail ne peut pas accepter. Revenez sur ce site et réessayez.',
    errorCode: 'Erreur : {{code}}',
    home: 'Aller au portail',
  },
  supportDesk: {
    title: 'Support',
    heading: 'Connexion au site de support…',
    noScript: 'Les scripts sont désactivés dans ce navigateur : continuez avec le bouton.',
    continue: 'Continuer vers le site de support',
    unavailableTitle: 'Pas de site de support ici',
    unavailableHeading: "La connexion à un site de support n'est pas proposée ici",
    unavailableText:
      "Ce portail n'est relié à aucun site de support. Vos licences et vos téléchargements sont dans le portail lui-même.",
    home: 'Aller au portail',
    portal: 'Graph Portal',
  },
};
