import type { NotifierMessages } from "./notifier-messages";

export const nl: NotifierMessages = {
  signer: {
    requestSubject: (title) => `Ter ondertekening: ${title}`,
    reminderSubject: (title) => `Herinnering: ${title} ondertekenen`,
    greeting: (name) => `Beste ${name},`,
    requestIntro: (sender, title) => `${sender} heeft u documenten gestuurd om te ondertekenen: “${title}”.`,
    reminderIntro: (sender, title) => `Dit is een herinnering: ${sender} wacht nog op uw handtekening onder “${title}”.`,
    documentsHeading: "Documenten:",
    sensitiveNotice: "De documenten bevatten gevoelige gegevens. U wordt gevraagd uw identiteit te bevestigen voordat u ze kunt openen.",
    signAction: "Bekijken en ondertekenen",
    linkIntro: "Open de documenten en onderteken hier:",
    completedSubject: (title) => `Door iedereen ondertekend: ${title}`,
    completedIntro: (title) => `Alle partijen hebben “${title}” ondertekend.`,
    completedOwnerIntro: (title, id) =>
      `Uw dossier “${title}” (id ${id}) is afgerond: alle ondertekenaars hebben getekend en de ondertekende documenten staan klaar.`,
    attachedNotice: "De ondertekende documenten zijn als bijlage bij deze e-mail gevoegd.",
    notAttachedNotice: "De ondertekende documenten zijn niet bij deze e-mail gevoegd.",
    notAttachedSensitiveNotice: "De documenten bevatten gevoelige gegevens en zijn daarom niet bij deze e-mail gevoegd.",
    ccNotice: "U ontvangt deze kopie omdat u als ontvanger van dit dossier bent opgegeven.",
    ownerNotice: "U ontvangt deze e-mail omdat u de eigenaar van dit dossier bent.",
    footer: (sender) => `Namens ${sender} verstuurd via E-Sign.`,
  },
  meeting: {
    subject: (title) => `Ondertekeningslinks voor uw afspraak: ${title}`,
    intro: (title) =>
      `“${title}” wordt tijdens een afspraak ondertekend, dus de ondertekenaars ontvangen geen e-mail van ons. Open de link van elke ondertekenaar hieronder samen met die persoon.`,
    linksHeading: "Ondertekeningslinks:",
    keepPrivate: "Elke link opent de documenten voor de betreffende ondertekenaar en laat die ondertekenen: geef hem aan niemand anders door.",
    reason: "U ontvangt deze e-mail omdat u dit dossier hebt aangemaakt.",
  },
  subscriptionDisabled: {
    subject: (endpoint) => `Webhook-abonnement uitgeschakeld: ${endpoint}`,
    intro: (customer) =>
      `Een webhook-abonnement van ${customer} is uitgeschakeld. Er worden geen gebeurtenissen meer naar afgeleverd totdat het weer is ingeschakeld.`,
    endpoint: "Endpoint",
    subscription: "Abonnement",
    eventTypes: "Gebeurtenistypen",
    disabledAt: "Uitgeschakeld op",
    noEventTypes: "(geen)",
    whyHeading: "Waarom",
    why: (retries) =>
      `Een gebeurtenis kon niet bij dit endpoint worden afgeleverd: de eerste poging en alle ${retries} herhaalpogingen zijn mislukt (alleen een 2xx-antwoord binnen 1 seconde telt als afgeleverd). Na de laatste herhaalpoging is het abonnement uitgeschakeld, zodat leveringen zich niet blijven opstapelen bij een endpoint dat niet antwoordt.`,
    lastFailure: (description) => `Laatste mislukte poging: ${description}.`,
    howHeading: "Zo schakelt u het weer in",
    stepAnswerFast: "Zorg dat het endpoint binnen 1 seconde met 2xx antwoordt (eerst bevestigen, daarna verwerken).",
    stepReEnable:
      "Schakel het abonnement weer in met de aanroep Edit Subscription, geauthenticeerd zoals uw andere API-aanroepen (X-Auth-Token). In dezelfde aanroep kunt u de URL van het endpoint corrigeren.",
    resumeNotice: "Leveringen die wachtten terwijl het uitgeschakeld was, worden hervat zodra het weer actief is.",
    webApplicationNotice: "De webapplicatie biedt hetzelfde onder Configuratie, Webhooks.",
    reason: (customer) => `U ontvangt deze e-mail omdat u dit abonnement hebt aangemaakt of beheerder bent bij ${customer}.`,
    causes: {
      connectTimeout: "de verbinding kwam niet binnen 200 ms tot stand",
      responseTimeout: "het endpoint antwoordde niet binnen 1 seconde",
      connectionRefused: "de verbinding werd geweigerd",
      tlsError: "de TLS-handshake is mislukt (probleem met certificaat of protocol)",
      dnsError: "de hostnaam kon niet worden opgezocht",
      non2xx: (status) => `het endpoint antwoordde met HTTP ${status}`,
      blockedAddress: "de hostnaam verwijst naar een privé- of gereserveerd adres, waar wij niet naar afleveren",
      networkError: "een netwerkfout heeft het verzoek onderbroken",
    },
  },
  invitation: {
    subject: (customer) => `U bent uitgenodigd voor ${customer} op het ondertekeningsplatform`,
    intro: (customer) => `${customer} nodigt u uit voor zijn account op het ondertekeningsplatform.`,
    asAdmin: "U meldt zich aan als beheerder.",
    asMember: "U meldt zich aan als lid.",
    acceptAction: "Kies uw wachtwoord en meld u aan:",
    expires: (at) => `De link werkt tot ${at}.`,
    ignore: "Verwachtte u deze uitnodiging niet, negeer dan deze e-mail: zonder de link gebeurt er niets.",
  },
};
