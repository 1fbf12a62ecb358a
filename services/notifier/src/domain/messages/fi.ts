import type { NotifierMessages } from "./notifier-messages";

export const fi: NotifierMessages = {
  signer: {
    requestSubject: (title) => `Allekirjoituspyyntö: ${title}`,
    reminderSubject: (title) => `Muistutus: ${title} odottaa allekirjoitustasi`,
    greeting: (name) => `Hei ${name},`,
    requestIntro: (sender, title) => `${sender} on lähettänyt sinulle asiakirjoja allekirjoitettavaksi: ”${title}”.`,
    reminderIntro: (sender, title) => `Tämä on muistutus: ${sender} odottaa edelleen, että allekirjoitat asiakirjat ”${title}”.`,
    documentsHeading: "Asiakirjat:",
    sensitiveNotice: "Asiakirjat sisältävät arkaluonteisia tietoja. Sinua pyydetään vahvistamaan henkilöllisyytesi, ennen kuin voit avata ne.",
    signAction: "Tarkista ja allekirjoita",
    linkIntro: "Avaa asiakirjat ja allekirjoita tästä:",
    completedSubject: (title) => `Kaikki ovat allekirjoittaneet: ${title}`,
    completedIntro: (title) => `Kaikki osapuolet ovat allekirjoittaneet asiakirjat ”${title}”.`,
    completedOwnerIntro: (title, id) =>
      `Asiakirjakansiosi ”${title}” (tunnus ${id}) on valmis: kaikki allekirjoittajat ovat allekirjoittaneet, ja allekirjoitetut asiakirjat ovat saatavilla.`,
    attachedNotice: "Allekirjoitetut asiakirjat ovat tämän sähköpostin liitteinä.",
    notAttachedNotice: "Allekirjoitettuja asiakirjoja ei ole liitetty tähän sähköpostiin.",
    notAttachedSensitiveNotice: "Asiakirjat sisältävät arkaluonteisia tietoja, joten niitä ei ole liitetty tähän sähköpostiin.",
    ccNotice: "Saat tämän kopion, koska sinut on merkitty tämän asiakirjakansion vastaanottajaksi.",
    ownerNotice: "Saat tämän sähköpostin, koska olet tämän asiakirjakansion omistaja.",
    footer: (sender) => `Lähetetty E-Signin kautta lähettäjän ${sender} puolesta.`,
  },
  meeting: {
    subject: (title) => `Allekirjoituslinkit tapaamiseesi: ${title}`,
    intro: (title) =>
      `Asiakirjat ”${title}” allekirjoitetaan tapaamisessa, joten allekirjoittajat eivät saa meiltä sähköpostia. Avaa kunkin allekirjoittajan alla oleva linkki yhdessä hänen kanssaan.`,
    linksHeading: "Allekirjoituslinkit:",
    keepPrivate: "Jokainen linkki avaa asiakirjat sen allekirjoittajalle ja antaa hänen allekirjoittaa: älä anna sitä kenellekään muulle.",
    reason: "Saat tämän sähköpostin, koska loit tämän asiakirjakansion.",
  },
  subscriptionDisabled: {
    subject: (endpoint) => `Webhook-tilaus poistettu käytöstä: ${endpoint}`,
    intro: (customer) =>
      `Asiakkaan ${customer} webhook-tilaus on poistettu käytöstä. Siihen ei toimiteta tapahtumia, ennen kuin se otetaan uudelleen käyttöön.`,
    endpoint: "Päätepiste",
    subscription: "Tilaus",
    eventTypes: "Tapahtumatyypit",
    disabledAt: "Poistettu käytöstä",
    noEventTypes: "(ei yhtään)",
    whyHeading: "Miksi",
    why: (retries) =>
      `Tapahtumaa ei voitu toimittaa tähän päätepisteeseen: ensimmäinen yritys ja kaikki ${retries} uusintayritystä epäonnistuivat (toimitetuksi lasketaan vain 2xx-vastaus 1 sekunnin kuluessa). Viimeisen uusintayrityksen jälkeen tilaus poistettiin käytöstä, jotta toimitukset eivät kasaantuisi päätepisteelle, joka ei vastaa.`,
    lastFailure: (description) => `Viimeisin epäonnistunut yritys: ${description}.`,
    howHeading: "Näin otat sen uudelleen käyttöön",
    stepAnswerFast: "Varmista, että päätepiste vastaa 2xx-koodilla 1 sekunnin kuluessa (kuittaa ensin, käsittele vasta sitten).",
    stepReEnable:
      "Ota tilaus uudelleen käyttöön Edit Subscription -kutsulla, joka todennetaan samoin kuin muut API-kutsusi (X-Auth-Token). Voit korjata päätepisteen URL-osoitteen samalla kutsulla.",
    resumeNotice: "Toimitukset, jotka odottivat käytöstä poiston aikana, jatkuvat heti, kun tilaus on taas aktiivinen.",
    webApplicationNotice: "Verkkosovelluksessa saman voi tehdä kohdassa Asetukset, Webhookit.",
    reason: (customer) => `Saat tämän sähköpostin, koska loit tämän tilauksen tai olet asiakkaan ${customer} ylläpitäjä.`,
    causes: {
      connectTimeout: "yhteyttä ei saatu muodostettua 200 ms:n kuluessa",
      responseTimeout: "päätepiste ei vastannut 1 sekunnin kuluessa",
      connectionRefused: "yhteys hylättiin",
      tlsError: "TLS-kättely epäonnistui (varmenne- tai protokollaongelma)",
      dnsError: "isäntänimeä ei voitu selvittää",
      non2xx: (status) => `päätepiste vastasi HTTP ${status}`,
      blockedAddress: "isäntänimi osoittaa yksityiseen tai varattuun osoitteeseen, johon emme toimita",
      networkError: "verkkovirhe keskeytti pyynnön",
    },
  },
  invitation: {
    subject: (customer) => `Sinut on kutsuttu ${customer}:n tilille allekirjoituspalvelussa`,
    intro: (customer) => `${customer} kutsuu sinut tililleen allekirjoituspalvelussa.`,
    asAdmin: "Kirjaudut sisään ylläpitäjänä.",
    asMember: "Kirjaudut sisään jäsenenä.",
    acceptAction: "Valitse salasanasi ja kirjaudu sisään:",
    expires: (at) => `Linkki toimii ${at} asti.`,
    ignore: "Jos et odottanut tätä kutsua, voit jättää viestin huomiotta: ilman linkkiä mitään ei tapahdu.",
  },
};
