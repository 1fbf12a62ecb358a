/**
 * The SDK for a browser (the web application at /app/): the same resources as the Node client, signed
 * in by the session cookie instead of OAuth credentials. Nothing this file pulls in imports Node
 * (services/api-gateway/webapp/tsconfig.json typechecks it without Node's types, and esbuild bundles it
 * for the browser, where a `node:` import fails the build).
 */
import { Api } from "./api";
import { ApiCredentials } from "./api-credentials";
import { CompanySettings, Sessions, Users, type Session } from "./users";
import { CaseFiles } from "./case-files";
import type { CaseFileInput } from "./case-file-input";
import { apiErrorFrom, readJson, Transport, type FetchFn } from "./http";
import { ZCaseFile, ZCreateResponse, ZJob, type CaseFile, type CreatedJob, type Job } from "./schemas";
import { CopyRecipients, Signers } from "./signers";
import { Subscriptions } from "./subscriptions";
import { Folders } from "./folders";
import { z } from "zod";

export const BROWSER_CREATE_PATH = "/send/api/v1/casefiles/20251022/create";
const JOB_STATUS_PATH = "/send/api/v1/queue/public/status";
const CASE_FILES_PATH = "/send/api/v1/casefiles";

/** A document's seal, as GET .../verification answers it. */
export const ZSealCheck = z
  .object({ sealed: z.boolean(), sealValid: z.boolean().nullable(), sealedAt: z.string().nullable(), level: z.string().nullable() })
  .passthrough();
export type SealCheck = z.infer<typeof ZSealCheck>;

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * The part of the browser's XMLHttpRequest used here, typed locally: the SDK is also compiled for Node
 * (without the DOM's types), and only XMLHttpRequest reports an upload's progress.
 */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getResponseHeader(name: string): string | null;
  send(body: FormData): void;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  readonly status: number;
  readonly responseText: string;
}
const newXhr = (): Xhr => new (globalThis as unknown as { XMLHttpRequest: new () => Xhr }).XMLHttpRequest();

export interface BrowserClientOptions {
  /** Default: the page's origin (""). */
  baseUrl?: string;
  fetch?: FetchFn;
  requestTimeoutMs?: number;
}

export class EsignBrowserClient {
  readonly sessions: Sessions;
  readonly users: Users;
  readonly company: CompanySettings;
  readonly credentials: ApiCredentials;
  readonly caseFiles: CaseFiles;
  readonly signers: Signers;
  readonly copyRecipients: CopyRecipients;
  readonly folders: Folders;
  readonly subscriptions: Subscriptions;
  private readonly api: Api;
  private readonly baseUrl: string;

  constructor(options: BrowserClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
    const fetchFn: FetchFn = options.fetch ?? ((input, init) => fetch(input, { ...init, credentials: "same-origin" }));
    const transport = new Transport(this.baseUrl, fetchFn, options.requestTimeoutMs ?? 120_000, "esign-webapp");
    // No token manager: every call goes with the session (the cookie, and X-CSRF-Token on changes).
    this.api = new Api(transport, null);
    this.sessions = new Sessions(this.api);
    this.users = new Users(this.api);
    this.company = new CompanySettings(this.api);
    this.credentials = new ApiCredentials(this.api);
    this.caseFiles = new CaseFiles(this.api);
    this.signers = new Signers(this.api);
    this.copyRecipients = new CopyRecipients(this.api);
    this.folders = new Folders(this.api);
    this.subscriptions = new Subscriptions(this.api);
  }

  signIn(email: string, password: string): Promise<Session> {
    return this.sessions.signIn(email, password);
  }

  /** The cookie's session (its CSRF token kept for changes), or null when signed out. */
  async resume(): Promise<Session | null> {
    try {
      return await this.sessions.current();
    } catch (err) {
      if ((err as { status?: number }).status === 401) return null;
      throw err;
    }
  }

  signOut(): Promise<void> {
    return this.sessions.signOut();
  }

  getCaseFile(id: number): Promise<CaseFile> {
    return this.api.json({ method: "GET", path: `${CASE_FILES_PATH}/${id}`, auth: "x-auth-token" }, ZCaseFile);
  }

  /** Where the browser downloads a document (the signed PDF once the case file is finalized); same origin, the cookie authenticates. */
  documentUrl(caseFileId: number, documentId: number): string {
    return `${this.baseUrl}${CASE_FILES_PATH}/${caseFileId}/documents/${documentId}/file`;
  }

  /** A document's PDF (the sealed one once the case file is finalized), for the browser to save. */
  async downloadDocument(caseFileId: number, documentId: number): Promise<Blob> {
    const bytes = await this.api.bytes({
      method: "GET",
      path: `${CASE_FILES_PATH}/${caseFileId}/documents/${documentId}/file`,
      auth: "x-auth-token",
      headers: { Accept: "application/pdf" },
    });
    return new Blob([bytes], { type: "application/pdf" });
  }

  verifyDocument(caseFileId: number, documentId: number): Promise<SealCheck> {
    return this.api.json({ method: "GET", path: `${CASE_FILES_PATH}/${caseFileId}/documents/${documentId}/verification`, auth: "x-auth-token" }, ZSealCheck);
  }

  getJob(uuid: string, payloadHash: string): Promise<Job> {
    return this.api.json({ method: "POST", path: JOB_STATUS_PATH, auth: "none", json: { uuid, payloadHash } }, ZJob);
  }

  /**
   * Uploads a case file with its PDFs and reports the upload's progress (fetch cannot: XMLHttpRequest
   * can). Creation goes on asynchronously: follow the answer with getJob.
   */
  async createCaseFile(caseFile: CaseFileInput, files: readonly File[], onProgress?: (p: UploadProgress) => void): Promise<CreatedJob> {
    const form = new FormData();
    form.append("data", JSON.stringify({ caseFile }));
    for (const file of files) form.append("files", file, file.name);
    const csrf = this.api.session.csrfToken ?? "";
    const res = await new Promise<Response>((resolve, reject) => {
      const xhr = newXhr();
      xhr.open("POST", `${this.baseUrl}${BROWSER_CREATE_PATH}`);
      xhr.setRequestHeader("Accept", "application/json");
      if (csrf !== "") xhr.setRequestHeader("X-CSRF-Token", csrf);
      xhr.upload.onprogress = (e) => onProgress?.({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
      xhr.onload = () => {
        const headers = new Headers();
        const retryAfter = xhr.getResponseHeader("retry-after");
        if (retryAfter) headers.set("retry-after", retryAfter);
        resolve(new Response(xhr.responseText, { status: xhr.status, headers }));
      };
      xhr.onerror = () => reject(new Error(`POST ${BROWSER_CREATE_PATH} failed`));
      xhr.send(form);
    });
    if (!res.ok) throw await apiErrorFrom(res, `POST ${BROWSER_CREATE_PATH}`);
    const answer = await readJson(res, ZCreateResponse, `POST ${BROWSER_CREATE_PATH}`);
    const [job] = answer.jobs as [CreatedJob, ...CreatedJob[]];
    return job;
  }
}

export { EsignApiError, EsignNetworkError, EsignResponseError } from "./errors";
export { CASE_FILE_STATUS, SIGNER_STATUS } from "./schemas";
export type { CaseFile, CopyRecipient, DeliveryAttempt, Document, Job, LogEntry, RecoverTask, RotatedSecret, Signer, Subscription } from "./schemas";
export type { CaseFileInput, SignerInput, Language } from "./case-file-input";
export type { Company, CompanyProfile, InvitationView, Role, Session, SsoConfig, User } from "./users";
export type { ApiCredential as Credential, IssuedApiCredential as NewCredential } from "./api-credentials";
export type { Folder } from "./folders";
export { EVENT_TYPES } from "./event-types";
