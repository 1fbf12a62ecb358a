/** Field-level problem as listed in the error body of the contract. */
export interface FieldIssue {
  path: string;
  code: string;
  message: string;
}

// One code per kind of failure; the HTTP status follows from the code, never from the call site.
const STATUS = {
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_mismatch: 422,
  too_many_requests: 429,
  internal_error: 500,
  /** PostgreSQL or Redis is away: answered with Retry-After, never as a 500. */
  service_unavailable: 503,
  // A signing link's refusals (the signing routes answer them as pages in the signer's language too).
  /** A link that is over for good. */
  expired: 410,
  signer_deleted: 410,
  casefile_deleted: 410,
  rejected: 410,
  casefile_rejected: 410,
  casefile_failed: 410,
  casefile_completed: 410,
  /** A link that may work later, or never again for this signer. */
  already_signed: 409,
  not_yet_sent: 409,
  not_active: 409,
  identity_unavailable: 409,
  identity_required: 403,
  identity_mismatch: 403,
  no_document_to_sign: 403,
  method_not_allowed: 400,
  invalid_login_state: 400,
  login_session_missing: 400,
  login_cancelled: 400,
  login_failed: 400,
  identity_provider_unavailable: 503,
} as const;

/** Values a refusal's text is written from in another language (a date it names), not part of the body. */
export type ErrorParams = Readonly<Record<string, Date | string | number>>;

export type AppErrorCode = keyof typeof STATUS;

export interface ErrorBody {
  error: AppErrorCode;
  message: string;
  statusCode: number;
  errors?: FieldIssue[];
  errorId?: string;
}

export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly errors?: FieldIssue[],
    readonly headers?: Record<string, string>,
    readonly params?: ErrorParams,
  ) {
    super(message);
    this.name = "AppError";
    this.statusCode = STATUS[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.code, message: this.message, statusCode: this.statusCode };
    if (this.errors && this.errors.length > 0) body.errors = this.errors;
    return body;
  }
}

export function statusOf(code: AppErrorCode): number {
  return STATUS[code];
}
