import { Api } from "./api";
import { CaseFiles } from "./case-files";
import type { CaseFileInput, UploadFile } from "./case-file-input";
import { Transport, type FetchFn } from "./http";
import { createCaseFileForm } from "./multipart";
import { ZCaseFile, ZCreateResponse, ZJob, type CaseFile, type CompletedJob, type CreatedJob, type Job } from "./schemas";
import { CopyRecipients, Signers } from "./signers";
import { Subscriptions } from "./subscriptions";
import { Folders } from "./folders";
import { Contacts } from "./contacts";
import { CompanySettings, Sessions, Users } from "./users";
import { ApiCredentials } from "./api-credentials";
import { TokenManager, type Credentials } from "./token-manager";
import { waitForJob, type JobPoller, type WaitForJobOptions } from "./wait-for-job";

export const CREATE_PATH = "/send/api/v1/casefiles/20251022/create";
export const JOB_STATUS_PATH = "/send/api/v1/queue/public/status";
export const CASE_FILES_PATH = "/send/api/v1/casefiles";

export interface EsignClientOptions {
  /** The API origin, e.g. `https://api.example.com` (the gateway; `{base_url}` and `{webhook_url}` alike). */
  baseUrl: string;
  /**
   * `{ clientId, clientSecret }` (client_credentials grant) or with `apiKey`, `apiSecret` (api_keys grant).
   * Not needed with `session: true`.
   */
  credentials?: Credentials;
  /**
   * A web-application session instead of API credentials: sign in with `sessions.signIn` (or pick up
   * the browser's with `sessions.current`); every call then goes with the session's cookie and CSRF token.
   */
  session?: boolean;
  /** Default: Node's global fetch. */
  fetch?: FetchFn;
  /** A token is replaced this long before it expires. Default 60. */
  refreshMarginSeconds?: number;
  /** Per HTTP attempt (uploads included). Default 120000. */
  requestTimeoutMs?: number;
  /** Clock (ms) for token expiry bookkeeping; inject one in tests. Default Date.now. */
  now?: () => number;
  /** Default `esign-sdk-node/0.1.0`. */
  userAgent?: string;
}

export interface CreateCaseFileOptions {
  /** Same key + same payload answers the first job again; same key + another payload is 422. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

// Remembered answered polls per job; bounded so a long-lived client does not grow without limit.
const MAX_TRACKED_JOBS = 1_000;

/** A typed client for the e-signing API. One instance per set of credentials; safe to share. */
export class EsignClient {
  readonly baseUrl: string;
  /** Webhook subscriptions of the client's customer. */
  readonly subscriptions: Subscriptions;
  /** Signers, signing requests and event logs of existing case files. */
  readonly signers: Signers;
  /** Copy recipients of existing case files. */
  readonly copyRecipients: CopyRecipients;
  /** The customer's folders and the case files in them. */
  readonly folders: Folders;
  /** The customer's contacts. */
  readonly contacts: Contacts;
  /** The customer's API credentials: list, make, rotate, revoke (customer admins only). */
  readonly apiCredentials: ApiCredentials;
  /** The case file archive at Penneo's paths: search, update, send or activate drafts, the recycle bin. */
  readonly caseFiles: CaseFiles;
  /** Sign-in and invitations of the web application (a client made with `session: true`). */
  readonly sessions: Sessions;
  /** The customer's users. */
  readonly users: Users;
  /** The company settings. */
  readonly company: CompanySettings;
  private readonly api: Api;
  private readonly tokens: TokenManager | null;
  private readonly answeredPolls = new Map<string, number>();
  private readonly poller: JobPoller;

  constructor(options: EsignClientOptions) {
    if (!options.baseUrl) throw new TypeError("EsignClient: baseUrl is required");
    const { clientId, clientSecret } = options.credentials ?? {};
    if (!options.session && (!clientId || !clientSecret)) {
      throw new TypeError("EsignClient: credentials.clientId and credentials.clientSecret are required (or session: true)");
    }
    const margin = options.refreshMarginSeconds ?? 60;
    if (!Number.isFinite(margin) || margin < 0) throw new TypeError("EsignClient: refreshMarginSeconds must be a non-negative number");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    const fetchFn: FetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    const transport = new Transport(this.baseUrl, fetchFn, options.requestTimeoutMs ?? 120_000, options.userAgent ?? "esign-sdk-node/0.1.0");
    this.tokens = options.session || !options.credentials ? null : new TokenManager(transport, options.credentials, margin * 1000, options.now ?? Date.now);
    this.api = new Api(transport, this.tokens);
    this.sessions = new Sessions(this.api);
    this.users = new Users(this.api);
    this.company = new CompanySettings(this.api);
    this.subscriptions = new Subscriptions(this.api);
    this.signers = new Signers(this.api);
    this.copyRecipients = new CopyRecipients(this.api);
    this.folders = new Folders(this.api);
    this.contacts = new Contacts(this.api);
    this.caseFiles = new CaseFiles(this.api);
    this.apiCredentials = new ApiCredentials(this.api);
    this.poller = {
      getJob: (uuid, payloadHash, opts) => this.getJob(uuid, payloadHash, opts),
      lastAnsweredPollAt: (uuid) => this.answeredPolls.get(uuid),
    };
  }

  /** A valid access token (cached; refreshed `refreshMarginSeconds` before expiry). */
  getAccessToken(): Promise<string> {
    if (!this.tokens) return Promise.reject(new TypeError("EsignClient: a session client has no access token"));
    return this.tokens.get();
  }

  /**
   * Uploads a case file: `data` is `{ caseFile }` as a JSON string, each file a `files` part whose file
   * name must equal a document's `name`. Creation is asynchronous: use the answer with waitForJob.
   */
  async createCaseFile(caseFile: CaseFileInput, files: readonly UploadFile[], options: CreateCaseFileOptions = {}): Promise<CreatedJob> {
    const form = await createCaseFileForm(caseFile, files);
    const answer = await this.api.json(
      {
        method: "POST",
        path: CREATE_PATH,
        auth: "x-auth-token",
        form,
        ...(options.idempotencyKey !== undefined ? { headers: { "Idempotency-Key": options.idempotencyKey } } : {}),
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      },
      ZCreateResponse,
    );
    const [job] = answer.jobs as [CreatedJob, ...CreatedJob[]];
    return { uuid: job.uuid, payloadHash: job.payloadHash, createdAt: job.createdAt };
  }

  /**
   * One poll of the job status. Polling the same job again within 5 s is answered 429
   * (EsignApiError with `retryAfterSeconds`); waitForJob keeps that spacing for you.
   */
  async getJob(uuid: string, payloadHash: string, options: { signal?: AbortSignal } = {}): Promise<Job> {
    const job = await this.api.json(
      {
        method: "POST",
        path: JOB_STATUS_PATH,
        auth: "none",
        json: { uuid, payloadHash },
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      },
      ZJob,
    );
    this.answeredPolls.delete(uuid);
    this.answeredPolls.set(uuid, Date.now());
    if (this.answeredPolls.size > MAX_TRACKED_JOBS) {
      const oldest = this.answeredPolls.keys().next();
      if (!oldest.done) this.answeredPolls.delete(oldest.value);
    }
    return job;
  }

  /**
   * Polls until the job is final: resolves with the completed job (case file id, signing links),
   * rejects with JobFailedError (its `errorMessage`), JobTimeoutError, or the signal's reason.
   */
  waitForJob(uuid: string, payloadHash: string, options: WaitForJobOptions = {}): Promise<CompletedJob> {
    return waitForJob(this.poller, uuid, payloadHash, options);
  }

  /** A case file of the customer (404 for another customer's). */
  getCaseFile(id: number, options: { signal?: AbortSignal } = {}): Promise<CaseFile> {
    return this.api.json(
      {
        method: "GET",
        path: `${CASE_FILES_PATH}/${encodeURIComponent(String(id))}`,
        auth: "x-auth-token",
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      },
      ZCaseFile,
    );
  }

  /** A document's PDF: the signed one once the case file is finalized. */
  downloadDocument(caseFileId: number, documentId: number, options: { signal?: AbortSignal } = {}): Promise<Buffer> {
    return this.bytes({
      method: "GET",
      path: `${CASE_FILES_PATH}/${encodeURIComponent(String(caseFileId))}/documents/${encodeURIComponent(String(documentId))}/file`,
      auth: "x-auth-token",
      headers: { Accept: "application/pdf" },
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
  }

  private async bytes(req: Parameters<Api["bytes"]>[0]): Promise<Buffer> {
    return Buffer.from(await this.api.bytes(req));
  }
}
