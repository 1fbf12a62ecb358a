import { z } from "zod";
import type { Api } from "./api";
import type { EmailFormat, InsecureSigningMethod, Language, SecureSigningMethod, SignerInput, SsnType } from "./case-file-input";
import { ZCopyRecipient, ZLogEntry, ZSigner, ZSigningRequest, type CopyRecipient, type LogEntry, type Signer, type SigningRequest } from "./schemas";

/** Penneo's entity paths, which this client uses for what happens after create. */
export const PENNEO_API_PATH = "/api/v3";

const id = (n: number) => encodeURIComponent(String(n));
const caseFilePath = (caseFileId: number) => `${PENNEO_API_PATH}/casefiles/${id(caseFileId)}`;
const requestPath = (signerId: number) => `${PENNEO_API_PATH}/signingrequests/${id(signerId)}`;

/** A signer's own fields; absent: unchanged, null: cleared. On a sent case file only `name` and `onBehalfOf`. */
export interface SignerUpdate {
  name?: string;
  socialSecurityNumberPlain?: string | null;
  ssnType?: SsnType | null;
  vatin?: string | null;
  onBehalfOf?: string | null;
  storeAsContact?: boolean;
  language?: Language | null;
  role?: string;
  signOrder?: number;
  channel?: "email" | "eboks";
  cpr?: string | null;
  cvr?: string | null;
  activeAt?: number | null;
  expireAt?: number | null;
}

/** A signing request's fields; absent: unchanged, null: cleared. */
export interface SigningRequestUpdate {
  email?: string | null;
  emailSubject?: string | null;
  emailText?: string | null;
  reminderEmailSubject?: string | null;
  reminderEmailText?: string | null;
  completedEmailSubject?: string | null;
  completedEmailText?: string | null;
  emailFormat?: EmailFormat | null;
  successUrl?: string | null;
  failUrl?: string | null;
  /** Days between reminders, min 1; null: none. */
  reminderInterval?: number | null;
  accessControl?: boolean;
  enableInsecureSigning?: boolean;
  insecureSigningMethods?: InsecureSigningMethod[];
  secureSigningMethods?: SecureSigningMethod[];
}

/** Signers and their signing requests after creation (the API's Penneo paths, `/api/v3/...`). */
export class Signers {
  constructor(private readonly api: Api) {}

  /** Adds a signer to a draft (status 0): the create's signer fields and rules. 409 once the case file is sent. */
  add(caseFileId: number, signer: SignerInput): Promise<Signer> {
    return this.api.json({ method: "POST", path: `${caseFilePath(caseFileId)}/signers`, auth: "x-auth-token", json: signer }, ZSigner);
  }

  /** Changes a signer (partial). */
  update(caseFileId: number, signerId: number, patch: SignerUpdate): Promise<Signer> {
    return this.api.json({ method: "PUT", path: `${caseFilePath(caseFileId)}/signers/${id(signerId)}`, auth: "x-auth-token", json: patch }, ZSigner);
  }

  /** Removes a signer who has not signed, while the case file is new or pending (never the last who can sign). */
  delete(caseFileId: number, signerId: number): Promise<void> {
    return this.api.empty({ method: "DELETE", path: `${caseFilePath(caseFileId)}/signers/${id(signerId)}`, auth: "x-auth-token" });
  }

  getSigningRequest(signerId: number): Promise<SigningRequest> {
    return this.api.json({ method: "GET", path: requestPath(signerId), auth: "x-auth-token" }, ZSigningRequest);
  }

  /** Changes a signing request (partial); a new email is used by the next `resendSigningRequest`. */
  updateSigningRequest(signerId: number, patch: SigningRequestUpdate): Promise<SigningRequest> {
    return this.api.json({ method: "PUT", path: requestPath(signerId), auth: "x-auth-token", json: patch }, ZSigningRequest);
  }

  /** Sends the signing request again now (a new mail, then `sign.signer.requestSent`). */
  resendSigningRequest(signerId: number): Promise<SigningRequest> {
    return this.api.json({ method: "PATCH", path: `${requestPath(signerId)}/send`, auth: "x-auth-token" }, ZSigningRequest);
  }

  /** The signer's signing link. 409 for a draft whose links are not made yet. */
  async getSigningLink(signerId: number): Promise<string> {
    const [link] = await this.api.json({ method: "GET", path: `${requestPath(signerId)}/link`, auth: "x-auth-token" }, z.array(z.string()).length(1));
    return link as string;
  }

  /** The signer's event log, oldest first. */
  log(caseFileId: number, signerId: number): Promise<LogEntry[]> {
    return this.api.json({ method: "GET", path: `${caseFilePath(caseFileId)}/signers/${id(signerId)}/log`, auth: "x-auth-token" }, z.array(ZLogEntry));
  }

  /** The case file's whole event log (its signers' entries included, with `signerId`), oldest first. */
  caseFileLog(caseFileId: number): Promise<LogEntry[]> {
    return this.api.json({ method: "GET", path: `${caseFilePath(caseFileId)}/log`, auth: "x-auth-token" }, z.array(ZLogEntry));
  }
}

/** A case file's copy recipients: they get the completion mail. Changes only while it is new or pending. */
export class CopyRecipients {
  constructor(private readonly api: Api) {}

  list(caseFileId: number): Promise<CopyRecipient[]> {
    return this.api.json({ method: "GET", path: `${caseFilePath(caseFileId)}/recipients`, auth: "x-auth-token" }, z.array(ZCopyRecipient));
  }

  get(caseFileId: number, recipientId: number): Promise<CopyRecipient> {
    return this.api.json({ method: "GET", path: `${caseFilePath(caseFileId)}/recipients/${id(recipientId)}`, auth: "x-auth-token" }, ZCopyRecipient);
  }

  add(caseFileId: number, recipient: { name: string; email: string; storeAsContact?: boolean }): Promise<CopyRecipient> {
    return this.api.json({ method: "POST", path: `${caseFilePath(caseFileId)}/recipients`, auth: "x-auth-token", json: recipient }, ZCopyRecipient);
  }

  update(caseFileId: number, recipientId: number, patch: { name?: string; email?: string }): Promise<CopyRecipient> {
    return this.api.json(
      { method: "PUT", path: `${caseFilePath(caseFileId)}/recipients/${id(recipientId)}`, auth: "x-auth-token", json: patch },
      ZCopyRecipient,
    );
  }

  delete(caseFileId: number, recipientId: number): Promise<void> {
    return this.api.empty({ method: "DELETE", path: `${caseFilePath(caseFileId)}/recipients/${id(recipientId)}`, auth: "x-auth-token" });
  }
}
