import { catalogProblems, negotiateLanguage, resolveLanguage, channelDefaultLanguage, type Catalog } from "../src";

interface Sample {
  hello: string;
  greet: (name: string) => string;
  nested: { bye: string };
}

const complete: Catalog<Sample> = {
  en: { hello: "Hello there, friend", greet: (n) => `Dear ${n},`, nested: { bye: "Goodbye" } },
  da: { hello: "Hej med dig, ven", greet: (n) => `Kære ${n}`, nested: { bye: "Farvel" } },
  sv: { hello: "Hej på dig, vän", greet: (n) => `Hej ${n},`, nested: { bye: "Hej då" } },
  nl: { hello: "Hallo daar, vriend", greet: (n) => `Beste ${n},`, nested: { bye: "Tot ziens" } },
  fr: { hello: "Bonjour, cher ami", greet: (n) => `Bonjour ${n},`, nested: { bye: "Au revoir" } },
  fi: { hello: "Hei sinä, ystävä", greet: (n) => `Hei ${n},`, nested: { bye: "Näkemiin" } },
  no: { hello: "Hei på deg, venn", greet: (n) => `Kjære ${n},`, nested: { bye: "Ha det" } },
  de: { hello: "Hallo, mein Freund", greet: (n) => `Liebe/r ${n},`, nested: { bye: "Auf Wiedersehen" } },
};

describe("catalogProblems", () => {
  it("finds nothing in a complete catalog", () => {
    expect(catalogProblems("sample", complete)).toEqual([]);
  });

  it("names a language that is missing, and a key one language lacks", () => {
    const { fi: _fi, ...withoutFinnish } = complete;
    expect(catalogProblems("sample", withoutFinnish)).toEqual(['sample: language "fi" is missing']);
    const noBye = { ...complete, de: { ...complete.de, nested: {} } };
    expect(catalogProblems("sample", noBye)).toEqual(['sample.de: "nested.bye" is missing']);
  });

  it("refuses empty texts, unknown keys, dropped arguments and English left in place", () => {
    const broken = {
      ...complete,
      sv: { ...complete.sv, hello: "  " },
      nl: { ...complete.nl, extra: "x" },
      fr: { ...complete.fr, greet: () => "Bonjour," },
      no: { ...complete.no, hello: "Hello there, friend" },
    };
    expect(catalogProblems("sample", broken)).toEqual([
      'sample.sv: "hello" is empty',
      'sample.nl: unknown key "extra"',
      'sample.fr: "greet" drops argument 1',
      'sample.no: "hello" reads exactly like the English text (not translated?)',
    ]);
    expect(catalogProblems("sample", broken, { sameAsEnglish: ["hello"] })).toHaveLength(3);
  });
});

describe("language choice", () => {
  it("takes the first known language, else the fallback", () => {
    expect(resolveLanguage([null, " SV ", "da"], "en")).toBe("sv");
    expect(resolveLanguage(["xx", undefined], "da")).toBe("da");
    expect(channelDefaultLanguage("eboks")).toBe("da");
    expect(channelDefaultLanguage("email")).toBe("en");
    expect(channelDefaultLanguage(null)).toBe("en");
  });

  it("negotiates Accept-Language among the eight, by q-value, Norwegian tags included", () => {
    expect(negotiateLanguage("es-ES,es;q=0.9,sv;q=0.8,en;q=0.7")).toBe("sv");
    expect(negotiateLanguage("en;q=0.5, fr-BE")).toBe("fr");
    expect(negotiateLanguage("nb-NO")).toBe("no");
    expect(negotiateLanguage("de;q=0, ja")).toBeNull();
    expect(negotiateLanguage(undefined)).toBeNull();
  });
});
