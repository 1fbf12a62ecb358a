import type { FieldError, Job } from "./schemas";

export interface EsignApiErrorInit {
  status: number;
  code: string;
  message: string;
  errors?: FieldError[];
  errorId?: string;
  requestId?: string;
  retryAfterSeconds?: number;
  body?: unknown;
}

/** A 4xx/5xx answer of the API, from the contract's error body `{error, message, statusCode, errors?, errorId?}`. */
export class EsignApiError extends Error {
  override readonly name = "EsignApiError";
  /** HTTP status. */
  readonly status: number;
  /** The body's `error` (e.g. `validation_failed`, `unauthorized`, `not_found`, `too_many_requests`). */
  readonly code: string;
  /** Every failing field of a 400, e.g. `{ path: "caseFile.signers[0].email", code, message }`. */
  readonly errors?: FieldError[];
  /** On a 500: the id under which the server logged the failure; quote it to support. */
  readonly errorId?: string;
  /** The gateway's X-Request-Id of the answer. */
  readonly requestId?: string;
  /** From `Retry-After` (429, 503), in seconds. */
  readonly retryAfterSeconds?: number;
  /** The parsed body as received. */
  readonly body?: unknown;

  constructor(init: EsignApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    if (init.errors !== undefined) this.errors = init.errors;
    if (init.errorId !== undefined) this.errorId = init.errorId;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.body !== undefined) this.body = init.body;
  }
}

/** The request never got an HTTP answer: connection refused, DNS, reset, or `requestTimeoutMs` passed. */
export class EsignNetworkError extends Error {
  override readonly name = "EsignNetworkError";
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A 2xx answer whose body does not have the contract's shape (a wrong base URL, a proxy page, ...). */
export class EsignResponseError extends Error {
  override readonly name = "EsignResponseError";
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `waitForJob`: the creation job ended as `failed`; `errorMessage` says why (e.g. an add-on not contracted). */
export class JobFailedError extends Error {
  override readonly name = "JobFailedError";
  readonly uuid: string;
  readonly errorMessage: string;
  constructor(readonly job: Job) {
    const reason = job.errorMessage ?? "no reason given";
    super(`Case file creation job ${job.uuid} ${job.jobStatus === "aborted_duplicated" ? "was aborted as a duplicate" : "failed"}: ${reason}`);
    this.uuid = job.uuid;
    this.errorMessage = reason;
  }
}

/** `waitForJob`: the job was not final within `timeoutMs`. `lastJob` is the last answer, if any. */
export class JobTimeoutError extends Error {
  override readonly name = "JobTimeoutError";
  constructor(
    readonly uuid: string,
    readonly timeoutMs: number,
    readonly lastJob: Job | undefined,
    options?: { cause?: unknown },
  ) {
    super(`Case file creation job ${uuid} not final after ${timeoutMs} ms${lastJob ? ` (last status: ${lastJob.jobStatus})` : ""}`, options);
  }
}
