import type { NotifierMessages } from "./notifier-messages";

export const fr: NotifierMessages = {
  signer: {
    requestSubject: (title) => `Document à signer : ${title}`,
    reminderSubject: (title) => `Rappel : ${title} attend votre signature`,
    greeting: (name) => `Bonjour ${name},`,
    requestIntro: (sender, title) => `${sender} vous a envoyé des documents à signer : « ${title} ».`,
    reminderIntro: (sender, title) => `Ceci est un rappel : ${sender} attend toujours votre signature pour « ${title} ».`,
    documentsHeading: "Documents :",
    sensitiveNotice: "Les documents contiennent des données sensibles. Vous devrez confirmer votre identité avant de pouvoir les ouvrir.",
    signAction: "Consulter et signer",
    linkIntro: "Ouvrez les documents et signez ici :",
    completedSubject: (title) => `Signé par toutes les parties : ${title}`,
    completedIntro: (title) => `Toutes les parties ont signé « ${title} ».`,
    completedOwnerIntro: (title, id) =>
      `Votre dossier « ${title} » (id ${id}) est finalisé : tous les signataires ont signé et les documents signés sont disponibles.`,
    attachedNotice: "Les documents signés sont joints à cet e-mail.",
    notAttachedNotice: "Les documents signés ne sont pas joints à cet e-mail.",
    notAttachedSensitiveNotice: "Les documents contiennent des données sensibles ; ils ne sont donc pas joints à cet e-mail.",
    ccNotice: "Vous recevez cette copie car vous avez été désigné(e) comme destinataire de ce dossier.",
    ownerNotice: "Vous recevez cet e-mail car vous êtes le propriétaire de ce dossier.",
    footer: (sender) => `Envoyé au nom de ${sender} par E-Sign.`,
  },
  meeting: {
    subject: (title) => `Liens de signature pour votre rendez-vous : ${title}`,
    intro: (title) =>
      `« ${title} » doit être signé lors d'un rendez-vous : ses signataires ne reçoivent donc aucun e-mail de notre part. Ouvrez le lien de chaque signataire ci-dessous avec lui.`,
    linksHeading: "Liens de signature :",
    keepPrivate: "Chaque lien ouvre les documents pour son signataire et lui permet de signer : ne le transmettez à personne d'autre.",
    reason: "Vous recevez cet e-mail car vous avez créé ce dossier.",
  },
  subscriptionDisabled: {
    subject: (endpoint) => `Abonnement webhook désactivé : ${endpoint}`,
    intro: (customer) => `Un abonnement webhook de ${customer} a été désactivé. Aucun événement ne lui sera plus livré tant qu’il n’aura pas été réactivé.`,
    endpoint: "Point de terminaison",
    subscription: "Abonnement",
    eventTypes: "Types d’événements",
    disabledAt: "Désactivé le",
    noEventTypes: "(aucun)",
    whyHeading: "Pourquoi",
    why: (retries) =>
      `Un événement n’a pas pu être livré à ce point de terminaison : la première tentative et les ${retries} nouvelles tentatives ont toutes échoué (seule une réponse 2xx en moins d’une seconde compte comme une livraison). Après la dernière tentative, l’abonnement a été désactivé afin que les livraisons ne s’accumulent plus vers un point de terminaison qui ne répond pas.`,
    lastFailure: (description) => `Dernière tentative échouée : ${description}.`,
    howHeading: "Comment le réactiver",
    stepAnswerFast: "Assurez-vous que le point de terminaison répond 2xx en moins d’une seconde (accusez réception d’abord, traitez ensuite).",
    stepReEnable:
      "Réactivez l’abonnement avec l’appel Edit Subscription, authentifié comme vos autres appels d’API (X-Auth-Token). Vous pouvez corriger l’URL du point de terminaison dans le même appel.",
    resumeNotice: "Les livraisons en attente pendant la désactivation reprennent dès qu’il est de nouveau actif.",
    webApplicationNotice: "L’application web propose la même chose sous Configuration, Webhooks.",
    reason: (customer) => `Vous recevez cet e-mail car vous avez créé cet abonnement ou êtes administrateur de ${customer}.`,
    causes: {
      connectTimeout: "la connexion n’a pas été établie en moins de 200 ms",
      responseTimeout: "le point de terminaison n’a pas répondu en moins d’une seconde",
      connectionRefused: "la connexion a été refusée",
      tlsError: "la négociation TLS a échoué (problème de certificat ou de protocole)",
      dnsError: "le nom d’hôte n’a pas pu être résolu",
      non2xx: (status) => `le point de terminaison a répondu HTTP ${status}`,
      blockedAddress: "le nom d’hôte pointe vers une adresse privée ou réservée, vers laquelle nous ne livrons pas",
      networkError: "une erreur réseau a interrompu la requête",
    },
  },
  invitation: {
    subject: (customer) => `Vous êtes invité à rejoindre ${customer} sur la plateforme de signature`,
    intro: (customer) => `${customer} vous invite à rejoindre son compte sur la plateforme de signature.`,
    asAdmin: "Vous vous connecterez en tant qu’administrateur.",
    asMember: "Vous vous connecterez en tant que membre.",
    acceptAction: "Choisissez votre mot de passe et connectez-vous :",
    expires: (at) => `Le lien est valable jusqu’au ${at}.`,
    ignore: "Si vous n’attendiez pas cette invitation, ignorez ce message : rien ne se passe sans le lien.",
  },
  subscriptionFailing: {
    subject: (endpoint) => `Échec des livraisons webhook : ${endpoint}`,
    intro: (customer, since) => `Les livraisons à un abonnement webhook de ${customer} échouent depuis ${since}, sans aucune livraison réussie depuis.`,
    action:
      "Les événements en échec sont réessayés toutes les heures. Si le point de terminaison ne répond pas 2xx en moins d’une seconde avant la dernière tentative, l’abonnement sera désactivé. Corrigez-le maintenant ; rien n’est perdu tant que l’abonnement reste actif.",
  },
};
