import type { SpecLanguage } from "./languages";

/**
 * The default texts, when the signer brings none of their own. English and Danish exist; every other
 * language of the spec falls back to English (the message still declares the language it was asked in
 * for e-Boks, and `lang` of the HTML says `en`). Adding a language is adding one object here.
 */
export interface Templates {
  /** Request and reminder */
  requestSubject(title: string): string;
  reminderSubject(title: string): string;
  greeting(name: string): string;
  requestIntro(sender: string, title: string): string;
  reminderIntro(sender: string, title: string): string;
  documentsHeading: string;
  /** sensitiveData: the documents are not named; this says why the signer will be asked who they are. */
  sensitiveNotice: string;
  signAction: string;
  /** The line above the raw link (text mails, and under the button in HTML ones). */
  linkIntro: string;
  /** Completion */
  completedSubject(title: string): string;
  completedIntro(title: string): string;
  completedOwnerIntro(title: string, caseFileId: number): string;
  attachedNotice: string;
  notAttachedNotice: string;
  notAttachedSensitiveNotice: string;
  ccNotice: string;
  ownerNotice: string;
  /** Footer of every mail: who sent it through which service. */
  footer(sender: string): string;
}

const en: Templates = {
  requestSubject: (title) => `Please sign: ${title}`,
  reminderSubject: (title) => `Reminder: please sign ${title}`,
  greeting: (name) => `Dear ${name},`,
  requestIntro: (sender, title) => `${sender} has sent you documents to sign: "${title}".`,
  reminderIntro: (sender, title) => `This is a reminder: ${sender} is still waiting for your signature on "${title}".`,
  documentsHeading: "Documents:",
  sensitiveNotice: "The documents contain sensitive data. You will be asked to confirm your identity before you can open them.",
  signAction: "Review and sign",
  linkIntro: "Open the documents and sign here:",
  completedSubject: (title) => `Signed by everyone: ${title}`,
  completedIntro: (title) => `All parties have signed "${title}".`,
  completedOwnerIntro: (title, id) => `Your case file "${title}" (id ${id}) is completed: every signer has signed and the signed documents are ready.`,
  attachedNotice: "The signed documents are attached to this email.",
  notAttachedNotice: "The signed documents are not attached to this email.",
  notAttachedSensitiveNotice: "The documents contain sensitive data, so they are not attached to this email.",
  ccNotice: "You receive this copy because you were named as a recipient of this case file.",
  ownerNotice: "You receive this email because you own this case file.",
  footer: (sender) => `Sent on behalf of ${sender} by E-Sign.`,
};

const da: Templates = {
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
  completedOwnerIntro: (title, id) => `Din sag "${title}" (id ${id}) er afsluttet: alle underskrivere har underskrevet, og de underskrevne dokumenter er klar.`,
  attachedNotice: "De underskrevne dokumenter er vedhæftet denne e-mail.",
  notAttachedNotice: "De underskrevne dokumenter er ikke vedhæftet denne e-mail.",
  notAttachedSensitiveNotice: "Dokumenterne indeholder følsomme oplysninger og er derfor ikke vedhæftet denne e-mail.",
  ccNotice: "Du modtager denne kopi, fordi du er angivet som modtager af sagen.",
  ownerNotice: "Du modtager denne e-mail, fordi du ejer sagen.",
  footer: (sender) => `Sendt på vegne af ${sender} via E-Sign.`,
};

const TEMPLATES: Partial<Record<SpecLanguage, Templates>> = { en, da };

/** The language whose texts are used for `language` (the language itself, or English). */
export function templateLanguage(language: SpecLanguage): SpecLanguage {
  return TEMPLATES[language] ? language : "en";
}

export function templatesFor(language: SpecLanguage): Templates {
  return TEMPLATES[language] ?? en;
}
