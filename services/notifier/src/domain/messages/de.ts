import type { NotifierMessages } from "./notifier-messages";

export const de: NotifierMessages = {
  signer: {
    requestSubject: (title) => `Zur Unterschrift: ${title}`,
    reminderSubject: (title) => `Erinnerung: ${title} wartet auf Ihre Unterschrift`,
    greeting: (name) => `Guten Tag ${name},`,
    requestIntro: (sender, title) => `${sender} hat Ihnen Dokumente zur Unterschrift gesendet: „${title}“.`,
    reminderIntro: (sender, title) => `Dies ist eine Erinnerung: ${sender} wartet noch auf Ihre Unterschrift für „${title}“.`,
    documentsHeading: "Dokumente:",
    sensitiveNotice: "Die Dokumente enthalten vertrauliche Daten. Sie werden gebeten, Ihre Identität zu bestätigen, bevor Sie sie öffnen können.",
    signAction: "Prüfen und unterschreiben",
    linkIntro: "Öffnen Sie die Dokumente und unterschreiben Sie hier:",
    completedSubject: (title) => `Von allen unterschrieben: ${title}`,
    completedIntro: (title) => `Alle Beteiligten haben „${title}“ unterschrieben.`,
    completedOwnerIntro: (title, id) =>
      `Ihr Vorgang „${title}“ (ID ${id}) ist abgeschlossen: Alle Beteiligten haben unterschrieben, und die unterschriebenen Dokumente liegen bereit.`,
    attachedNotice: "Die unterschriebenen Dokumente sind dieser E-Mail beigefügt.",
    notAttachedNotice: "Die unterschriebenen Dokumente sind dieser E-Mail nicht beigefügt.",
    notAttachedSensitiveNotice: "Die Dokumente enthalten vertrauliche Daten und sind dieser E-Mail daher nicht beigefügt.",
    ccNotice: "Sie erhalten diese Kopie, weil Ihre Adresse als Empfängeradresse dieses Vorgangs angegeben wurde.",
    ownerNotice: "Sie erhalten diese E-Mail, weil Sie diesen Vorgang angelegt haben.",
    footer: (sender) => `Im Auftrag von ${sender} versendet über E-Sign.`,
  },
  meeting: {
    subject: (title) => `Unterschriftslinks für Ihren Termin: ${title}`,
    intro: (title) =>
      `„${title}“ wird bei einem Termin unterschrieben, daher erhalten die Unterzeichnenden keine E-Mail von uns. Öffnen Sie den Link jeder unterzeichnenden Person unten gemeinsam mit ihr.`,
    linksHeading: "Unterschriftslinks:",
    keepPrivate: "Jeder Link öffnet die Dokumente für die jeweilige Person und lässt sie unterschreiben: Geben Sie ihn nicht an andere weiter.",
    reason: "Sie erhalten diese E-Mail, weil Sie diesen Vorgang angelegt haben.",
  },
  subscriptionDisabled: {
    subject: (endpoint) => `Webhook-Abonnement deaktiviert: ${endpoint}`,
    intro: (customer) => `Ein Webhook-Abonnement von ${customer} wurde deaktiviert. Bis es wieder aktiviert wird, werden ihm keine Ereignisse zugestellt.`,
    endpoint: "Endpunkt",
    subscription: "Abonnement",
    eventTypes: "Ereignistypen",
    disabledAt: "Deaktiviert am",
    noEventTypes: "(keine)",
    whyHeading: "Warum",
    why: (retries) =>
      `Ein Ereignis konnte diesem Endpunkt nicht zugestellt werden: Der erste Versuch und alle ${retries} Wiederholungen sind fehlgeschlagen (als zugestellt gilt nur eine 2xx-Antwort innerhalb von 1 Sekunde). Nach der letzten Wiederholung wurde das Abonnement deaktiviert, damit sich keine Zustellungen an einem Endpunkt stauen, der nicht antwortet.`,
    lastFailure: (description) => `Letzter fehlgeschlagener Versuch: ${description}.`,
    howHeading: "So aktivieren Sie es wieder",
    stepAnswerFast: "Stellen Sie sicher, dass der Endpunkt innerhalb von 1 Sekunde mit 2xx antwortet (erst bestätigen, dann verarbeiten).",
    stepReEnable:
      "Aktivieren Sie das Abonnement mit dem Aufruf Edit Subscription wieder, authentifiziert wie Ihre anderen API-Aufrufe (X-Auth-Token). Im selben Aufruf können Sie die URL des Endpunkts korrigieren.",
    resumeNotice: "Zustellungen, die während der Deaktivierung warteten, laufen wieder an, sobald es aktiv ist.",
    webApplicationNotice: "Die Webanwendung bietet dasselbe unter Konfiguration, Webhooks.",
    reason: (customer) => `Sie erhalten diese E-Mail, weil Sie dieses Abonnement angelegt haben oder Administrator bei ${customer} sind.`,
    causes: {
      connectTimeout: "die Verbindung kam nicht innerhalb von 200 ms zustande",
      responseTimeout: "der Endpunkt hat nicht innerhalb von 1 Sekunde geantwortet",
      connectionRefused: "die Verbindung wurde abgelehnt",
      tlsError: "der TLS-Handshake ist fehlgeschlagen (Zertifikats- oder Protokollproblem)",
      dnsError: "der Hostname konnte nicht aufgelöst werden",
      non2xx: (status) => `der Endpunkt hat mit HTTP ${status} geantwortet`,
      blockedAddress: "der Hostname verweist auf eine private oder reservierte Adresse, an die wir nicht zustellen",
      networkError: "ein Netzwerkfehler hat die Anfrage unterbrochen",
    },
  },
  invitation: {
    subject: (customer) => `Sie sind zu ${customer} auf der Signaturplattform eingeladen`,
    intro: (customer) => `${customer} lädt Sie zu seinem Konto auf der Signaturplattform ein.`,
    asAdmin: "Sie melden sich als Administrator an.",
    asMember: "Sie melden sich als Mitglied an.",
    acceptAction: "Wählen Sie Ihr Passwort und melden Sie sich an:",
    expires: (at) => `Der Link gilt bis ${at}.`,
    ignore: "Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail: ohne den Link geschieht nichts.",
  },
  subscriptionFailing: {
    subject: (endpoint) => `Webhook-Zustellungen schlagen fehl: ${endpoint}`,
    intro: (customer, since) =>
      `Zustellungen an ein Webhook-Abonnement von ${customer} schlagen seit ${since} fehl, ohne eine erfolgreiche Zustellung seitdem.`,
    action:
      "Die fehlgeschlagenen Ereignisse werden stündlich erneut versucht. Antwortet der Endpunkt vor dem letzten Versuch nicht innerhalb von 1 Sekunde mit 2xx, wird das Abonnement deaktiviert. Beheben Sie das jetzt; solange das Abonnement aktiv ist, geht nichts verloren.",
  },
};
