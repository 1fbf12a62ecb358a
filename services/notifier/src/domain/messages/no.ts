import type { NotifierMessages } from "./notifier-messages";

export const no: NotifierMessages = {
  signer: {
    requestSubject: (title) => `Til signering: ${title}`,
    reminderSubject: (title) => `Påminnelse: ${title} venter på signaturen din`,
    greeting: (name) => `Hei ${name},`,
    requestIntro: (sender, title) => `${sender} har sendt deg dokumenter til signering: «${title}».`,
    reminderIntro: (sender, title) => `Dette er en påminnelse: ${sender} venter fortsatt på signaturen din på «${title}».`,
    documentsHeading: "Dokumenter:",
    sensitiveNotice: "Dokumentene inneholder sensitive opplysninger. Du blir bedt om å bekrefte identiteten din før du kan åpne dem.",
    signAction: "Se gjennom og signer",
    linkIntro: "Åpne dokumentene og signer her:",
    completedSubject: (title) => `Signert av alle: ${title}`,
    completedIntro: (title) => `Alle parter har signert «${title}».`,
    completedOwnerIntro: (title, id) => `Saken din «${title}» (id ${id}) er fullført: alle har signert, og de signerte dokumentene er klare.`,
    attachedNotice: "De signerte dokumentene er vedlagt denne e-posten.",
    notAttachedNotice: "De signerte dokumentene er ikke vedlagt denne e-posten.",
    notAttachedSensitiveNotice: "Dokumentene inneholder sensitive opplysninger og er derfor ikke vedlagt denne e-posten.",
    ccNotice: "Du mottar denne kopien fordi du er oppført som mottaker av saken.",
    ownerNotice: "Du mottar denne e-posten fordi du eier saken.",
    footer: (sender) => `Sendt på vegne av ${sender} via E-Sign.`,
  },
  meeting: {
    subject: (title) => `Signeringslenker til møtet ditt: ${title}`,
    intro: (title) =>
      `«${title}» skal signeres på et møte, så de som skal signere, får ingen e-post fra oss. Åpne lenken til hver av dem nedenfor sammen med vedkommende.`,
    linksHeading: "Signeringslenker:",
    keepPrivate: "Hver lenke åpner dokumentene for den som skal signere, og lar vedkommende signere: ikke gi den videre til andre.",
    reason: "Du mottar denne e-posten fordi du opprettet saken.",
  },
  subscriptionDisabled: {
    subject: (endpoint) => `Webhook-abonnement deaktivert: ${endpoint}`,
    intro: (customer) => `Et webhook-abonnement hos ${customer} er deaktivert. Ingen hendelser leveres til det før det er aktivert igjen.`,
    endpoint: "Endepunkt",
    subscription: "Abonnement",
    eventTypes: "Hendelsestyper",
    disabledAt: "Deaktivert",
    noEventTypes: "(ingen)",
    whyHeading: "Hvorfor",
    why: (retries) =>
      `En hendelse kunne ikke leveres til dette endepunktet: det første forsøket og alle ${retries} nye forsøk mislyktes (bare et 2xx-svar innen 1 sekund regnes som levert). Etter det siste forsøket ble abonnementet deaktivert, slik at leveranser ikke hoper seg opp mot et endepunkt som ikke svarer.`,
    lastFailure: (description) => `Siste mislykkede forsøk: ${description}.`,
    howHeading: "Slik aktiverer du det igjen",
    stepAnswerFast: "Sørg for at endepunktet svarer med 2xx innen 1 sekund (bekreft først, behandle etterpå).",
    stepReEnable:
      "Aktiver abonnementet igjen med kallet Edit Subscription, autentisert som de andre API-kallene dine (X-Auth-Token). Du kan rette endepunktets URL i det samme kallet.",
    resumeNotice: "Leveranser som ventet mens det var deaktivert, starter igjen så snart det er aktivt.",
    webApplicationNotice: "Webapplikasjonen tilbyr det samme under Konfigurasjon, Webhooks.",
    reason: (customer) => `Du mottar denne e-posten fordi du opprettet abonnementet eller er administrator hos ${customer}.`,
    causes: {
      connectTimeout: "forbindelsen ble ikke opprettet innen 200 ms",
      responseTimeout: "endepunktet svarte ikke innen 1 sekund",
      connectionRefused: "forbindelsen ble avvist",
      tlsError: "TLS-håndtrykket mislyktes (problem med sertifikat eller protokoll)",
      dnsError: "vertsnavnet kunne ikke slås opp",
      non2xx: (status) => `endepunktet svarte HTTP ${status}`,
      blockedAddress: "vertsnavnet peker til en privat eller reservert adresse, som vi ikke leverer til",
      networkError: "en nettverksfeil avbrøt forespørselen",
    },
  },
  subscriptionFailing: {
    subject: (endpoint) => `Webhook-leveranser feiler: ${endpoint}`,
    intro: (customer, since) => `Leveranser til et webhook-abonnement hos ${customer} har feilet siden ${since}, uten noen vellykket leveranse siden.`,
    action:
      "De feilede hendelsene prøves på nytt hver time. Hvis endepunktet ikke svarer 2xx innen 1 sekund før siste forsøk, blir abonnementet deaktivert. Rett endepunktet nå; ingenting går tapt så lenge abonnementet er aktivt.",
  },
};
