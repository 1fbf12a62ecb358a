import { LANGUAGES, type TLanguage } from "./languages";

/**
 * A message catalog: for each of the eight languages, the same set of keys (texts, or functions
 * that build a text from values such as a name or a title). Every surface a signer, cc recipient
 * or owner reads (mails, e-Boks messages, signing pages, the audit trail) keeps its texts in one of
 * these, typed by an interface, so the compiler already refuses a language that forgets a key;
 * `catalogProblems` checks the same at run time and more (empty texts, dropped values, English left
 * in place), and the tests run it over every catalog.
 */
export type Catalog<M extends object> = Readonly<Record<TLanguage, M>>;

export interface CatalogCheckOptions {
  /**
   * Keys (dot paths, e.g. `methods.draw`) whose text may read exactly like the English one in another
   * language: brand names and technical terms that are not translated.
   */
  sameAsEnglish?: readonly string[];
}

/** A text's place in the catalog; keys may contain dots themselves (`methods["mitid.dk"]`). */
type Leaf = { keys: string[]; path: string; value: unknown };

function leaves(value: unknown, keys: string[] = []): Leaf[] {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...keys, k]));
  }
  return [{ keys, path: keys.join("."), value }];
}

const at = (root: unknown, keys: readonly string[]): unknown =>
  keys.reduce<unknown>(
    (node, key) => (node !== null && typeof node === "object" && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined),
    root,
  );

/** Distinct markers as arguments: whatever the English text shows of them, every translation must show too. */
const marker = (i: number) => `⟦${i}⟧`;

function render(value: unknown, arity: number): string | null {
  if (typeof value === "string") return value;
  if (typeof value !== "function") return null;
  const out: unknown = (value as (...args: string[]) => unknown)(...Array.from({ length: arity }, (_, i) => marker(i)));
  return typeof out === "string" ? out : null;
}

const wordCount = (s: string) => (s.replace(/⟦\d+⟧/g, " ").match(/\p{L}{2,}/gu) ?? []).length;

/**
 * Everything wrong with a catalog, as sentences naming the catalog, the language and the key; an
 * empty list means every key exists in every language. English is the reference.
 */
export function catalogProblems(name: string, catalog: Partial<Record<TLanguage, unknown>>, options: CatalogCheckOptions = {}): string[] {
  const reference = catalog.en;
  if (reference === null || typeof reference !== "object") return [`${name}: no English messages to compare with`];
  const keys = leaves(reference);
  const same = new Set(options.sameAsEnglish ?? []);
  const problems: string[] = [];
  for (const language of LANGUAGES) {
    const messages = catalog[language];
    if (messages === null || typeof messages !== "object") {
      problems.push(`${name}: language "${language}" is missing`);
      continue;
    }
    const known = new Set(keys.map((k) => k.path));
    for (const extra of leaves(messages).filter((l) => !known.has(l.path))) problems.push(`${name}.${language}: unknown key "${extra.path}"`);
    for (const { keys: place, path, value: english } of keys) {
      const arity = typeof english === "function" ? english.length : 0;
      const expected = render(english, arity);
      const actual = render(at(messages, place), arity);
      if (expected === null) {
        problems.push(`${name}.en: "${path}" is neither a text nor a function returning one`);
        continue;
      }
      if (actual === null) {
        problems.push(`${name}.${language}: "${path}" is missing`);
        continue;
      }
      if (actual.trim() === "") {
        problems.push(`${name}.${language}: "${path}" is empty`);
        continue;
      }
      for (let i = 0; i < arity; i++) {
        if (expected.includes(marker(i)) && !actual.includes(marker(i))) problems.push(`${name}.${language}: "${path}" drops argument ${i + 1}`);
      }
      if (language !== "en" && actual === expected && wordCount(actual) >= 3 && !same.has(path)) {
        problems.push(`${name}.${language}: "${path}" reads exactly like the English text (not translated?)`);
      }
    }
  }
  return problems;
}
