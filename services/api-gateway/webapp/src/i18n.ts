import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Language } from "@esign/sdk/browser";
import { en, type Messages } from "./messages-en";
import { MESSAGES } from "./messages";

export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: "English",
  da: "Dansk",
  sv: "Svenska",
  nl: "Nederlands",
  fr: "Français",
  fi: "Suomi",
  no: "Norsk",
  de: "Deutsch",
};
export const APP_LANGUAGES = Object.keys(LANGUAGE_NAMES) as Language[];

const isLanguage = (v: string): v is Language => (APP_LANGUAGES as string[]).includes(v);

/** The person's choice (kept in localStorage), else the browser's first language we have, else English. */
export function initialLanguage(): Language {
  const chosen = localStorage.getItem("esign.language");
  if (chosen && isLanguage(chosen)) return chosen;
  for (const tag of navigator.languages ?? []) {
    const base = tag.toLowerCase().split("-")[0] ?? "";
    const mapped = base === "nb" || base === "nn" ? "no" : base;
    if (isLanguage(mapped)) return mapped;
  }
  return "en";
}

export const I18n = createContext<{ lang: Language; t: Messages }>({ lang: "en", t: en });
export const useI18n = () => useContext(I18n);
export const messagesFor = (lang: Language): Messages => MESSAGES[lang];

/** Dates as the person's language writes them. */
export function formatDate(lang: Language, value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === "") return "";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return date.toLocaleString(lang === "no" ? "nb" : lang, { dateStyle: "medium", timeStyle: "short" });
}
