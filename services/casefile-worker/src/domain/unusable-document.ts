/** A document that can never be sealed (missing or unreadable PDF): the case file fails at once. */
export class UnusableDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnusableDocumentError";
  }
}
