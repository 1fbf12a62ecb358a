import type { FieldIssue } from "@esign/errors";
import type { SigningMessages } from "./messages/signing-messages";

/** A refusal's words for a page, in the signer's language (dates already in the message are formatted per language). */
export type PageText = (m: SigningMessages, formatDate: (d: Date) => string) => string;

/**
 * Why a signing request is refused. Kept apart from AppError because the signer's side needs 410
 * (a link that is over for good) and answers HTML to browsers; the body has the contract's shape.
 * `message` is the API's English text; pages show the catalog's text for the code (see negotiate.ts),
 * or `pageText` when the refusal carries a value (a date) of its own.
 */
export class SigningError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldIssue[],
    readonly pageText?: PageText,
  ) {
    super(message);
    this.name = "SigningError";
  }

  toBody() {
    return { error: this.code, message: this.message, statusCode: this.statusCode, ...(this.errors?.length ? { errors: this.errors } : {}) };
  }
}

export const linkNotFound = () => new SigningError(404, "not_found", "This signing link does not exist");
