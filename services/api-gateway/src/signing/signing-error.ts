import type { FieldIssue } from "@esign/errors";

/**
 * Why a signing request is refused. Kept apart from AppError because the signer's side needs 410
 * (a link that is over for good) and answers HTML to browsers; the body has the contract's shape.
 */
export class SigningError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldIssue[],
  ) {
    super(message);
    this.name = "SigningError";
  }

  toBody() {
    return { error: this.code, message: this.message, statusCode: this.statusCode, ...(this.errors?.length ? { errors: this.errors } : {}) };
  }
}

export const linkNotFound = () => new SigningError(404, "not_found", "This signing link does not exist");
