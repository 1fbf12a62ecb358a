import type { NotifierMessages } from "./notifier-messages";

export const da: NotifierMessages = {
  signer: {
    requestSubject: (title) => `Underskriv venligst: ${title}`,
    reminderSubject: (title) => `Påmindelse: underskriv venligst ${title}`,
    greeting: (name) => `Kære ${name}`,
    requestIntro: (sender, title) => `${sender} har sendt dig dokumenter til underskrift: "${title}".`,
    reminderIntro: (sender, title) => `Dette er en påmindelse: ${sender} venter stadig på din underskrift på "${title}".`,
    documentsHeading: "Dokumenter:",
    sensitiveNotice: "Dokumenterne indeholder følsomme oplysninger. Du bliver bedt om at bekræfte din identitet, før du kan åbne dem.",
    signAction: "Læs og underskriv",
    linkIntro: "Åbn dokumenterne og underskriv her:",
    completedSubject: (title) => `Underskrevet af alle: ${title}`,
    completedIntro: (title) => `Alle parter har underskrevet "${title}".`,
    completedOwnerIntro: (title, id) =>
      `Din sag "${title}" (id ${id}) er afsluttet: alle underskrivere har underskrevet, og de underskrevne dokumenter er klar.`,
    attachedNotice: "De underskrevne dokumenter er vedhæftet denne e-mail.",
    notAttachedNotice: "De underskrevne dokumenter er ikke vedhæftet denne e-mail.",
    notAttachedSensitiveNotice: "Dokumenterne indeholder følsomme oplysninger og er derfor ikke vedhæftet denne e-mail.",
    ccNotice: "Du modtager denne kopi, fordi du er angivet som modtager af sagen.",
    ownerNotice: "Du modtager denne e-mail, fordi du ejer sagen.",
    footer: (sender) => `Sendt på vegne af ${sender} via E-Sign.`,
  },
  meeting: {
    subject: (title) => `Underskriftslinks til dit møde: ${title}`,
    intro: (title) =>
      `"${title}" skal underskrives på et møde, så underskriverne får ingen e-mail fra os. Åbn hver underskrivers link herunder sammen med vedkommende.`,
    linksHeading: "Underskriftslinks:",
    keepPrivate: "Hvert link åbner dokumenterne for den pågældende underskriver og lader vedkommende underskrive: giv det ikke videre til andre.",
    reason: "Du modtager denne e-mail, fordi du har oprettet sagen.",
  },
  subscriptionDisabled: {
    subject: (endpoint) => `Webhook-abonnement deaktiveret: ${endpoint}`,
    intro: (customer) => `Et webhook-abonnement hos ${customer} er blevet deaktiveret. Der leveres ingen hændelser til det, før det er aktiveret igen.`,
    endpoint: "Endpoint",
    subscription: "Abonnement",
    eventTypes: "Hændelsestyper",
    disabledAt: "Deaktiveret",
    noEventTypes: "(ingen)",
    whyHeading: "Hvorfor",
    why: (retries) =>
      `En hændelse kunne ikke leveres til dette endpoint: det første forsøg og alle ${retries} genforsøg mislykkedes (kun et 2xx-svar inden for 1 sekund tæller som leveret). Efter det sidste genforsøg blev abonnementet deaktiveret, så leveringer ikke hober sig op mod et endpoint, der ikke svarer.`,
    lastFailure: (description) => `Sidste mislykkede forsøg: ${description}.`,
    howHeading: "Sådan aktiverer du det igen",
    stepAnswerFast: "Sørg for, at endpointet svarer 2xx inden for 1 sekund (kvittér først, behandl bagefter).",
    stepReEnable:
      "Aktivér abonnementet igen med kaldet Edit Subscription, godkendt som dine andre API-kald (X-Auth-Token). Du kan rette endpointets URL i samme kald.",
    resumeNotice: "Leveringer, der ventede, mens det var deaktiveret, starter igen, så snart det er aktivt.",
    webApplicationNotice: "Webapplikationen tilbyder det samme under Konfiguration, Webhooks.",
    reason: (customer) => `Du modtager denne e-mail, fordi du har oprettet abonnementet eller er administrator hos ${customer}.`,
    causes: {
      connectTimeout: "forbindelsen blev ikke oprettet inden for 200 ms",
      responseTimeout: "endpointet svarede ikke inden for 1 sekund",
      connectionRefused: "forbindelsen blev afvist",
      tlsError: "TLS-forhandlingen mislykkedes (problem med certifikat eller protokol)",
      dnsError: "værtsnavnet kunne ikke slås op",
      non2xx: (status) => `endpointet svarede HTTP ${status}`,
      blockedAddress: "værtsnavnet peger på en privat eller reserveret adresse, som vi ikke leverer til",
      networkError: "en netværksfejl afbrød forespørgslen",
    },
  },
  invitation: {
    subject: (customer) => `Du er inviteret til ${customer} på signeringsplatformen`,
    intro: (customer) => `${customer} inviterer dig til sin konto på signeringsplatformen.`,
    asAdmin: "Du logger ind som administrator.",
    asMember: "Du logger ind som medlem.",
    acceptAction: "Vælg din adgangskode og log ind:",
    expires: (at) => `Linket virker indtil ${at}.`,
    ignore: "Hvis du ikke ventede denne invitation, kan du se bort fra mailen: uden linket sker der intet.",
  },
  subscriptionFailing: {
    subject: (endpoint) => `Webhook-leveringer fejler: ${endpoint}`,
    intro: (customer, since) => `Leveringer til et webhook-abonnement hos ${customer} har fejlet siden ${since}, uden nogen vellykket levering siden.`,
    action:
      "De fejlede hændelser forsøges igen hver time. Hvis endpointet ikke svarer 2xx inden for 1 sekund før det sidste forsøg, bliver abonnementet deaktiveret. Ret endpointet nu; intet går tabt, så længe abonnementet er aktivt.",
  },
};
