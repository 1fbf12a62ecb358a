import type { FieldIssue } from "@esign/errors";
import { CASEFILE_STATUS, SIGNER_STATUS, signableDocumentsFor, type RoleScopedDocument } from "@esign/schema";

/*
 * What would stop a case file from being sent now: GET casefiles/{id}/errors answers it (sdk-net's
 * GetErrorsAsync, sdk-php's getErrors), and PATCH .../send and .../activate refuse with it (409).
 */

export interface ReadinessCaseFile {
  status: number;
  /** Sent or activated already (a case file waiting for its sendAt is still status 0). */
  activate: boolean;
  expireAt: Date | null;
  signOnMeeting: boolean;
}

export interface ReadinessSigner {
  name: string;
  status: number;
  channel: string;
  email: string | null;
  /** Only whether one is given is read: the number stays encrypted. */
  cprEnc: string | null;
  cvr: string | null;
  role: string;
  secureSigningMethods: readonly string[];
}

export interface ReadinessAccount {
  eboksEnabled: boolean;
  secureSigningMethods: readonly string[];
}

/** Why a case file that is not a draft cannot be sent, by its status. */
const STATE: Partial<Record<number, string>> = {
  [CASEFILE_STATUS.pending]: "The case file has already been sent",
  [CASEFILE_STATUS.rejected]: "The case file was rejected and is closed",
  [CASEFILE_STATUS.deleted]: "The case file is in the recycle bin: restore it first",
  [CASEFILE_STATUS.signed]: "The case file is signed and being finalized",
  [CASEFILE_STATUS.completed]: "The case file is completed",
  [CASEFILE_STATUS.failed]: "The case file failed and is closed",
  [CASEFILE_STATUS.expired]: "The case file has expired",
};

/** Why the case file is not a draft that may be sent or activated, or undefined when it is one. */
export function notADraft(cf: Pick<ReadinessCaseFile, "status" | "activate">): string | undefined {
  if (cf.status === CASEFILE_STATUS.new) return cf.activate ? "The case file has already been sent or activated (it goes out at its sendAt)" : undefined;
  return STATE[cf.status] ?? "The case file cannot be sent in its current state";
}

/**
 * Every problem that would stop sending the case file now (`mails`: a send, whose signers get their
 * requests; an activation mails nobody, so addresses do not matter to it). The account is read at
 * the time of the send: a secure method or the e-Boks add-on may have been switched off since create.
 */
export function sendProblems(
  cf: ReadinessCaseFile,
  signers: readonly ReadinessSigner[],
  documents: readonly RoleScopedDocument[],
  account: ReadinessAccount,
  options: { mails: boolean; now: Date },
): FieldIssue[] {
  const state = notADraft(cf);
  if (state) return [{ path: "status", code: "not_a_draft", message: state }];
  const problems: FieldIssue[] = [];
  if (cf.expireAt && cf.expireAt.getTime() <= options.now.getTime()) {
    problems.push({ path: "expireAt", code: "expired", message: "expireAt has passed: set a later one (or none) first" });
  }
  const enabled = new Set(account.secureSigningMethods);
  const taking = signers.map((s, i) => ({ s, i })).filter(({ s }) => s.status !== SIGNER_STATUS.deleted);
  if (taking.length === 0) problems.push({ path: "signers", code: "no_signer", message: "The case file has no signer" });
  // Signers with the owner's meeting mail (signOnMeeting) get no request of their own: their addresses do not matter either.
  const mailsSigners = options.mails && !cf.signOnMeeting;
  for (const { s, i } of taking) {
    const at = `signers[${i}]`;
    const who = `Signer ${i + 1} ("${s.name}")`;
    if (signableDocumentsFor(documents, s.role).length === 0) {
      problems.push({ path: `${at}.role`, code: "signer_without_document", message: `${who} can sign none of the documents (role "${s.role}")` });
    }
    const missing = s.secureSigningMethods.filter((m) => !enabled.has(m));
    if (missing.length > 0) {
      problems.push({
        path: `${at}.secureSigningMethods`,
        code: "method_not_enabled",
        message: `${who} requests secure signing methods this account has not enabled: ${missing.join(", ")}`,
      });
    }
    if (!mailsSigners) continue;
    if (s.channel === "eboks") {
      if (!account.eboksEnabled)
        problems.push({ path: `${at}.channel`, code: "eboks_disabled", message: `${who} is on e-Boks, which is disabled for this account` });
      if (!s.cprEnc && !s.cvr) problems.push({ path: at, code: "eboks_identifier_required", message: `${who} has neither cpr nor cvr for e-Boks` });
    } else if (!s.email) {
      problems.push({ path: `${at}.email`, code: "no_email", message: `${who} has no email address to send the signing request to` });
    }
  }
  return problems;
}
