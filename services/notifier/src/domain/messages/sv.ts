import type { NotifierMessages } from "./notifier-messages";

export const sv: NotifierMessages = {
  signer: {
    requestSubject: (title) => `Dokument att signera: ${title}`,
    reminderSubject: (title) => `Påminnelse: signera ${title}`,
    greeting: (name) => `Hej ${name},`,
    requestIntro: (sender, title) => `${sender} har skickat dokument till dig för signering: ”${title}”.`,
    reminderIntro: (sender, title) => `Det här är en påminnelse: ${sender} väntar fortfarande på din signatur på ”${title}”.`,
    documentsHeading: "Dokument:",
    sensitiveNotice: "Dokumenten innehåller känsliga uppgifter. Du kommer att behöva bekräfta din identitet innan du kan öppna dem.",
    signAction: "Granska och signera",
    linkIntro: "Öppna dokumenten och signera här:",
    completedSubject: (title) => `Signerat av alla: ${title}`,
    completedIntro: (title) => `Alla parter har signerat ”${title}”.`,
    completedOwnerIntro: (title, id) => `Ditt ärende ”${title}” (id ${id}) är slutfört: alla undertecknare har signerat och de signerade dokumenten är klara.`,
    attachedNotice: "De signerade dokumenten finns bifogade i det här mejlet.",
    notAttachedNotice: "De signerade dokumenten är inte bifogade i det här mejlet.",
    notAttachedSensitiveNotice: "Dokumenten innehåller känsliga uppgifter och har därför inte bifogats i det här mejlet.",
    ccNotice: "Du får den här kopian eftersom du har angetts som mottagare av ärendet.",
    ownerNotice: "Du får det här mejlet eftersom du äger ärendet.",
    footer: (sender) => `Skickat på uppdrag av ${sender} via E-Sign.`,
  },
  meeting: {
    subject: (title) => `Signeringslänkar till ditt möte: ${title}`,
    intro: (title) =>
      `”${title}” ska signeras vid ett möte, så undertecknarna får inget mejl från oss. Öppna varje undertecknares länk nedan tillsammans med hen.`,
    linksHeading: "Signeringslänkar:",
    keepPrivate: "Varje länk öppnar dokumenten för sin undertecknare och låter hen signera: lämna inte ut den till någon annan.",
    reason: "Du får det här mejlet eftersom du har skapat ärendet.",
  },
  subscriptionDisabled: {
    subject: (endpoint) => `Webhook-prenumeration inaktiverad: ${endpoint}`,
    intro: (customer) => `En webhook-prenumeration hos ${customer} har inaktiverats. Inga händelser levereras till den förrän den har aktiverats igen.`,
    endpoint: "Slutpunkt",
    subscription: "Prenumeration",
    eventTypes: "Händelsetyper",
    disabledAt: "Inaktiverad",
    noEventTypes: "(inga)",
    whyHeading: "Varför",
    why: (retries) =>
      `En händelse kunde inte levereras till den här slutpunkten: det första försöket och alla ${retries} omförsök misslyckades (bara ett 2xx-svar inom 1 sekund räknas som levererat). Efter det sista omförsöket inaktiverades prenumerationen, så att leveranser inte fortsätter att hopa sig mot en slutpunkt som inte svarar.`,
    lastFailure: (description) => `Senaste misslyckade försök: ${description}.`,
    howHeading: "Så aktiverar du den igen",
    stepAnswerFast: "Se till att slutpunkten svarar med 2xx inom 1 sekund (kvittera först, bearbeta sedan).",
    stepReEnable:
      "Aktivera prenumerationen igen med anropet Edit Subscription, autentiserat som dina övriga API-anrop (X-Auth-Token). Du kan rätta slutpunktens URL i samma anrop.",
    resumeNotice: "Leveranser som väntade medan den var inaktiverad startar igen så snart den är aktiv.",
    webApplicationNotice: "Webbapplikationen erbjuder samma sak under Konfiguration, Webhooks.",
    reason: (customer) => `Du får det här mejlet eftersom du har skapat prenumerationen eller är administratör hos ${customer}.`,
    causes: {
      connectTimeout: "anslutningen upprättades inte inom 200 ms",
      responseTimeout: "slutpunkten svarade inte inom 1 sekund",
      connectionRefused: "anslutningen nekades",
      tlsError: "TLS-handskakningen misslyckades (problem med certifikat eller protokoll)",
      dnsError: "värdnamnet kunde inte slås upp",
      non2xx: (status) => `slutpunkten svarade HTTP ${status}`,
      blockedAddress: "värdnamnet pekar på en privat eller reserverad adress, som vi inte levererar till",
      networkError: "ett nätverksfel avbröt anropet",
    },
  },
  invitation: {
    subject: (customer) => `Du är inbjuden till ${customer} på signeringsplattformen`,
    intro: (customer) => `${customer} bjuder in dig till sitt konto på signeringsplattformen.`,
    asAdmin: "Du loggar in som administratör.",
    asMember: "Du loggar in som medlem.",
    acceptAction: "Välj ditt lösenord och logga in:",
    expires: (at) => `Länken fungerar till ${at}.`,
    ignore: "Om du inte väntade dig denna inbjudan kan du bortse från mejlet: utan länken händer ingenting.",
  },
  subscriptionFailing: {
    subject: (endpoint) => `Webhook-leveranser misslyckas: ${endpoint}`,
    intro: (customer, since) =>
      `Leveranser till en webhook-prenumeration hos ${customer} har misslyckats sedan ${since}, utan någon lyckad leverans sedan dess.`,
    action:
      "De misslyckade händelserna försöks igen varje timme. Om slutpunkten inte svarar 2xx inom 1 sekund före det sista försöket inaktiveras prenumerationen. Åtgärda slutpunkten nu; inget går förlorat så länge prenumerationen är aktiv.",
  },
};
