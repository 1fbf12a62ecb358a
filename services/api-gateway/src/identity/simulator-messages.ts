import type { Catalog } from "@esign/i18n";

/** The identity-provider simulator's own pages (development only), in every language of the spec. */
export interface SimulatorMessages {
  banner: string;
  heading(method: string): string;
  developmentOnly: string;
  nationalIdLabel: string;
  approve: string;
  cancel: string;
  malformed: string;
}

export const SIMULATOR_MESSAGES: Catalog<SimulatorMessages> = {
  en: {
    banner: "Identity provider SIMULATOR — no real eID",
    heading: (method) => `Simulated login: ${method}`,
    developmentOnly: "Development only. Approving signs you in as a made-up person; nothing is checked.",
    nationalIdLabel: "Simulated national id (optional, e.g. a CPR number for accessControl)",
    approve: "Approve (simulated)",
    cancel: "Cancel",
    malformed: "This login request is malformed or names a redirect address the simulator does not serve.",
  },
  da: {
    banner: "SIMULATOR for identitetsudbyder — intet rigtigt eID",
    heading: (method) => `Simuleret login: ${method}`,
    developmentOnly: "Kun til udvikling. Godkender du, bliver du logget ind som en opdigtet person; intet bliver kontrolleret.",
    nationalIdLabel: "Simuleret nationalt id (valgfrit, fx et CPR-nummer til accessControl)",
    approve: "Godkend (simuleret)",
    cancel: "Annullér",
    malformed: "Denne login-anmodning er ugyldig eller angiver en returadresse, som simulatoren ikke betjener.",
  },
  sv: {
    banner: "SIMULATOR för identitetsleverantör — ingen riktig e-legitimation",
    heading: (method) => `Simulerad inloggning: ${method}`,
    developmentOnly: "Endast för utveckling. Om du godkänner loggas du in som en påhittad person; ingenting kontrolleras.",
    nationalIdLabel: "Simulerat id-nummer (valfritt, t.ex. ett CPR-nummer för accessControl)",
    approve: "Godkänn (simulerat)",
    cancel: "Avbryt",
    malformed: "Den här inloggningsbegäran är felaktig eller anger en returadress som simulatorn inte hanterar.",
  },
  nl: {
    banner: "SIMULATOR van identiteitsprovider — geen echte eID",
    heading: (method) => `Gesimuleerde login: ${method}`,
    developmentOnly: "Alleen voor ontwikkeling. Als u goedkeurt, wordt u ingelogd als een verzonnen persoon; er wordt niets gecontroleerd.",
    nationalIdLabel: "Gesimuleerd nationaal id (optioneel, bijv. een CPR-nummer voor accessControl)",
    approve: "Goedkeuren (gesimuleerd)",
    cancel: "Annuleren",
    malformed: "Dit inlogverzoek is ongeldig of noemt een terugkeeradres dat de simulator niet bedient.",
  },
  fr: {
    banner: "SIMULATEUR de fournisseur d’identité — aucune eID réelle",
    heading: (method) => `Connexion simulée : ${method}`,
    developmentOnly: "Réservé au développement. En approuvant, vous êtes connecté(e) en tant que personne fictive ; rien n’est vérifié.",
    nationalIdLabel: "Identifiant national simulé (facultatif, p. ex. un numéro CPR pour accessControl)",
    approve: "Approuver (simulé)",
    cancel: "Annuler",
    malformed: "Cette demande de connexion est mal formée ou indique une adresse de retour que le simulateur ne dessert pas.",
  },
  fi: {
    banner: "Tunnistuspalvelun SIMULAATTORI — ei oikeaa sähköistä tunnistusta",
    heading: (method) => `Simuloitu kirjautuminen: ${method}`,
    developmentOnly: "Vain kehityskäyttöön. Hyväksymällä kirjaudut keksittynä henkilönä; mitään ei tarkisteta.",
    nationalIdLabel: "Simuloitu henkilötunnus (valinnainen, esim. CPR-numero accessControlia varten)",
    approve: "Hyväksy (simuloitu)",
    cancel: "Peruuta",
    malformed: "Tämä kirjautumispyyntö on virheellinen, tai siinä on paluuosoite, jota simulaattori ei palvele.",
  },
  no: {
    banner: "SIMULATOR for identitetsleverandør — ingen ekte eID",
    heading: (method) => `Simulert innlogging: ${method}`,
    developmentOnly: "Kun for utvikling. Godkjenner du, blir du logget inn som en oppdiktet person; ingenting blir kontrollert.",
    nationalIdLabel: "Simulert nasjonalt ID (valgfritt, f.eks. et CPR-nummer for accessControl)",
    approve: "Godkjenn (simulert)",
    cancel: "Avbryt",
    malformed: "Denne innloggingsforespørselen er ugyldig eller oppgir en returadresse som simulatoren ikke betjener.",
  },
  de: {
    banner: "Identitätsanbieter-SIMULATOR — keine echte eID",
    heading: (method) => `Simulierte Anmeldung: ${method}`,
    developmentOnly: "Nur für die Entwicklung. Wenn Sie zustimmen, werden Sie als erfundene Person angemeldet; nichts wird geprüft.",
    nationalIdLabel: "Simulierte nationale ID (optional, z. B. eine CPR-Nummer für accessControl)",
    approve: "Zustimmen (simuliert)",
    cancel: "Abbrechen",
    malformed: "Diese Anmeldeanfrage ist fehlerhaft oder nennt eine Rücksprungadresse, die der Simulator nicht bedient.",
  },
};
