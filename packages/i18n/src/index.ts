export {
  LANGUAGES,
  EBOKS_DEFAULT_LANGUAGE,
  EMAIL_DEFAULT_LANGUAGE,
  channelDefaultLanguage,
  isLanguage,
  negotiateLanguage,
  resolveLanguage,
  type TLanguage,
} from "./languages";
export { catalogProblems, type Catalog, type CatalogCheckOptions } from "./catalog";
