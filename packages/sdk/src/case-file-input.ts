/*
 * The create request, hand-written from the spec's tables (service-spec.md, "Resources and their
 * fields"). Optional fields take the server's defaults when omitted; the server validates everything
 * and answers 400 with every failing field (see EsignApiError.errors).
 */

export type Language = "en" | "da" | "sv" | "nl" | "fr" | "fi" | "no" | "de";
export type Channel = "email" | "eboks";
export type SsnType = "legacy" | "dk:cpr" | "se:pin" | "no:nin" | "be:nrn" | "fi:pic" | "sms";
export type EmailFormat = "text" | "html";
export type InsecureSigningMethod = "text" | "draw" | "image";
export type SecureSigningMethod =
  | "mitid.dk"
  | "bankid_se"
  | "bankid_no"
  | "itsme.be"
  | "ftn.fi"
  | "sms"
  | "eid.belgium.be"
  | "passport-reader.eident.dk"
  | "ausweisapp.bund.de"
  | "qes.personal.mitid.dk"
  | "qes.erhverv.mitid.dk";

export interface SignerInput {
  /** Min 1 char. With channel `eboks` it is the recipient name. */
  name: string;
  /** Valid email; unused when channel is `eboks`. */
  email?: string;
  /** Default `email`. `eboks` needs exactly one of cpr / cvr and the customer's e-Boks add-on. */
  channel?: Channel;
  /** Exactly 10 digits; only with channel `eboks`; excludes cvr. */
  cpr?: string;
  /** 8 digits with an optional `:suffix`; only with channel `eboks`; excludes cpr. */
  cvr?: string;
  socialSecurityNumberPlain?: string | null;
  vatin?: string | null;
  /** Min 3 chars, no leading/trailing whitespace. Default `Signer`. */
  role?: string;
  onBehalfOf?: string;
  /** Min 0; 0 signs immediately, higher values sign in later rounds. */
  signOrder?: number;
  ssnType?: SsnType;
  accessControl?: boolean;
  successUrl?: string;
  failUrl?: string;
  language?: Language | null;
  emailFormat?: EmailFormat;
  emailSubject?: string;
  emailText?: string;
  /** Days between reminders, min 1. */
  reminderInterval?: number;
  reminderEmailSubject?: string;
  reminderEmailText?: string;
  completedEmailSubject?: string;
  completedEmailText?: string;
  /** Unix seconds (UTC). */
  activeAt?: number | null;
  /** Unix seconds (UTC). */
  expireAt?: number | null;
  enableInsecureSigning?: boolean;
  insecureSigningMethods?: InsecureSigningMethod[];
  /** Omitted: all methods of the account; `[]`: none; a subset: only those (each must be enabled). */
  secureSigningMethods?: SecureSigningMethod[];
  storeAsContact?: boolean;
}

export interface DocumentInput {
  /** 1 to 1024 chars. */
  title: string;
  /** Must equal the name of one uploaded file. */
  name: string;
  /** Default true; false makes it a non-signable attachment. */
  signable?: boolean;
  /** Roles allowed to sign it (min 3 chars each). Without roles on any document, everyone signs everything. */
  roles?: string[];
  documentOrder?: number;
  metaData?: string;
}

export interface CcRecipientInput {
  name: string;
  email: string;
  /** Default true. */
  storeAsContact?: boolean;
}

/** The `caseFile` object of the create request's `data` part. */
export interface CaseFileInput {
  /** 1 to 1024 chars. */
  title: string;
  signers: SignerInput[];
  documents: DocumentInput[];
  /** Default true: activate and return signing links. false: created unsent, `signingLinks: []`. */
  activateCaseFile?: boolean;
  ccRecipients?: CcRecipientInput[];
  language?: Language | null;
  metaData?: string;
  reference?: string;
  folderId?: number;
  /** Unix seconds (UTC); null sends at once. */
  sendAt?: number | null;
  /** Unix seconds (UTC). */
  expireAt?: number | null;
  sensitiveData?: boolean;
  /** 0: all documents visible to a signer; 1: only those the signer must sign. */
  visibilityMode?: 0 | 1;
  disableNotificationsOwner?: boolean;
  disableEmailAttachments?: boolean;
  /** 2 to 255 chars; empty or null uses the default. */
  senderName?: string | null;
  signOnMeeting?: boolean;
}

/** A file to upload: from disk (`name` defaults to the file's base name) or from memory. */
export type UploadFile = { path: string; name?: string } | { name: string; content: Uint8Array };
