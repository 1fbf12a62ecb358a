import { encryptSecret, newSigningToken, openStoredId, recordLog, type Keyring, type Prisma, type Signer, type Tx } from "@esign/db";
import { AppError, type FieldIssue } from "@esign/errors";
import { CASEFILE_STATUS, SIGNER_STATUS, signableDocumentsFor, signerRecord, type TSigner, type TSignerPatch } from "@esign/schema";
import type { GatewayContext } from "../context";
import type { ActingUser } from "../casefiles/acting-user";
import { caseFileStatusName, lockOwnedCaseFile, lockSignerOf, signerNotFound } from "../casefiles/locked-casefile";
import { accountIssues, ruleFormOf, ruleIssuesOfChange, type DocumentRoles, type RuleForm } from "./signer-rules";

/*
 * Adding and changing signers after creation (Penneo's `POST casefiles/{cf}/signers` and
 * `PUT casefiles/{cf}/signers/{id}`). One transaction each: the case file row is locked first, then
 * the signer's (the order of every writer), the state is checked under the lock, the change and its
 * log entry are written together.
 */

/** What the case file's other signers, documents and account are, for the create's rules. */
async function contextOf(tx: Tx, customerId: number, caseFileId: number) {
  const signers = await tx.signer.findMany({ where: { caseFileId }, orderBy: { id: "asc" } });
  const documents: DocumentRoles[] = await tx.document.findMany({
    where: { caseFileId },
    select: { name: true, signable: true, roles: true },
    orderBy: { id: "asc" },
  });
  const account = await tx.customer.findUniqueOrThrow({ where: { id: customerId }, select: { eboksEnabled: true, secureSigningMethods: true } });
  return { signers, documents, account };
}

const takesPart = (s: Signer) => s.status !== SIGNER_STATUS.deleted;

const invalid = (issues: FieldIssue[]) => new AppError("validation_failed", "Invalid signer: every failing field is listed", issues);

/**
 * A signer added to a draft: stored exactly as the create would store it (its defaults resolved
 * against the account), with a signing link when the case file is to be sent (a signer of the
 * create gets one then too), and the `added` log entry.
 */
export async function addSigner(ctx: GatewayContext, actor: ActingUser, caseFileId: number, input: TSigner): Promise<Signer> {
  return ctx.db.$transaction(async (tx) => {
    const cf = await lockOwnedCaseFile(tx, actor.customerId, caseFileId);
    if (cf.status !== CASEFILE_STATUS.new) {
      throw new AppError("conflict", `Signers can only be added to a draft (status 0); this case file is ${caseFileStatusName(cf.status)}`);
    }
    const { signers, documents, account } = await contextOf(tx, actor.customerId, caseFileId);
    const current = signers.filter(takesPart);
    if (current.length >= ctx.config.CASEFILE_MAX_SIGNERS) {
      throw new AppError("conflict", `A case file has at most ${ctx.config.CASEFILE_MAX_SIGNERS} signers; this one has ${current.length}`);
    }
    const issues = [...ruleIssuesOfChange(current.map(ruleFormOf), null, input, documents), ...accountIssues(account, input)];
    if (issues.length > 0) throw invalid(issues);

    const record = signerRecord(input, account, (id) => encryptSecret(id, ctx.config.ENCRYPTION_KEYRING));
    const signer = await tx.signer.create({ data: { ...record, caseFileId, notification: record.notification } });
    if (cf.activate && signableDocumentsFor(documents, record.role).length > 0) {
      const { token, tokenHash } = newSigningToken();
      await tx.signingLink.create({ data: { signerId: signer.id, tokenHash, tokenEnc: encryptSecret(token, ctx.config.ENCRYPTION_KEY) } });
    }
    await recordLog(tx, [{ customerId: actor.customerId, caseFileId, signerId: signer.id, event: "added", audit: actor.audit }]);
    return signer;
  });
}

type SignerField = keyof TSignerPatch;

/** Once sent, a signer's name and who they sign for may still be corrected (Penneo's archive allows it); nothing else. */
const EDITABLE_ONCE_SENT: readonly SignerField[] = ["name", "onBehalfOf"];

const unix = (d: Date | null): number | null => (d ? Math.floor(d.getTime() / 1000) : null);

/** The stored value of each field, in the request's words (ssnType: unset is Penneo's default, legacy; national ids in clear). */
function storedValue(s: Signer, field: SignerField, keys: Keyring): unknown {
  switch (field) {
    case "socialSecurityNumberPlain":
      return openStoredId(s.socialSecurityNumberEnc, keys);
    case "cpr":
      return openStoredId(s.cprEnc, keys);
    case "ssnType":
      return s.ssnType ?? "legacy";
    case "activeAt":
      return unix(s.activeAt);
    case "expireAt":
      return unix(s.expireAt);
    default:
      return s[field];
  }
}

const sameValue = (field: SignerField, a: unknown, b: unknown) => (field === "ssnType" ? (a ?? "legacy") === (b ?? "legacy") : a === b);

/** The fields of the request whose value differs from the stored one. */
function changedFields(s: Signer, patch: TSignerPatch, keys: Keyring): SignerField[] {
  return (Object.keys(patch) as SignerField[]).filter((f) => patch[f] !== undefined && !sameValue(f, patch[f], storedValue(s, f, keys)));
}

/** The columns of the changed fields (national ids encrypted, as signerRecord stores them). */
function columnsOf(patch: TSignerPatch, fields: readonly SignerField[], keys: Keyring): Prisma.SignerUpdateInput {
  const data: Record<string, unknown> = {};
  const encrypted = (v: unknown) => (typeof v === "string" && v !== "" ? encryptSecret(v, keys) : null);
  for (const f of fields) {
    const v = patch[f];
    if (f === "socialSecurityNumberPlain") data.socialSecurityNumberEnc = encrypted(v);
    else if (f === "cpr") data.cprEnc = encrypted(v);
    else if (f === "activeAt" || f === "expireAt") data[f] = typeof v === "number" ? new Date(v * 1000) : null;
    else data[f] = v;
  }
  return data as Prisma.SignerUpdateInput;
}

/** The signer in the create's words after the change, for the rules across fields. */
function ruleFormAfter(s: Signer, patch: TSignerPatch): RuleForm {
  const before = ruleFormOf(s);
  return {
    ...before,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.channel !== undefined ? { channel: patch.channel } : {}),
    ...(patch.role !== undefined ? { role: patch.role } : {}),
    ...(patch.cpr !== undefined ? { cpr: patch.cpr } : {}),
    ...(patch.cvr !== undefined ? { cvr: patch.cvr } : {}),
    ...(patch.activeAt !== undefined ? { activeAt: patch.activeAt } : {}),
    ...(patch.expireAt !== undefined ? { expireAt: patch.expireAt } : {}),
  };
}

/** 409 unless the signer may still change: not signed, rejected or deleted. */
export function signerStillOpen(s: Pick<Signer, "status">): void {
  if (s.status === SIGNER_STATUS.signed) throw new AppError("conflict", "The signer has already signed and can no longer be changed");
  if (s.status === SIGNER_STATUS.rejected) throw new AppError("conflict", "The signer has rejected and can no longer be changed");
  if (s.status === SIGNER_STATUS.deleted) throw new AppError("conflict", "The signer was deleted and can no longer be changed");
}

/**
 * A signer changed: on a draft every field (with the create's rules over the result), once sent
 * only its name and onBehalfOf (a value sent back unchanged is no change: Penneo's SDKs PUT what
 * they read), never once it signed, rejected or was deleted. The `edited` entry names the fields.
 */
export async function updateSigner(ctx: GatewayContext, actor: ActingUser, caseFileId: number, signerId: number, patch: TSignerPatch): Promise<Signer> {
  return ctx.db.$transaction(async (tx) => {
    const cf = await lockOwnedCaseFile(tx, actor.customerId, caseFileId);
    await lockSignerOf(tx, caseFileId, signerId);
    const { signers, documents, account } = await contextOf(tx, actor.customerId, caseFileId);
    const signer = signers.find((s) => s.id === signerId);
    if (!signer) throw signerNotFound();
    const fields = changedFields(signer, patch, ctx.config.ENCRYPTION_KEYRING);
    if (fields.length === 0) return signer;
    if (cf.status !== CASEFILE_STATUS.new && cf.status !== CASEFILE_STATUS.pending) {
      throw new AppError("conflict", `Signers can only be changed while the case file is new or pending; this one is ${caseFileStatusName(cf.status)}`);
    }
    signerStillOpen(signer);
    if (cf.status === CASEFILE_STATUS.pending) {
      const locked = fields.filter((f) => !EDITABLE_ONCE_SENT.includes(f));
      if (locked.length > 0) {
        throw new AppError("conflict", `The case file is sent: only ${EDITABLE_ONCE_SENT.join(" and ")} can still change, not ${locked.join(", ")}`);
      }
    }
    const others = signers.filter((s) => s.id !== signerId && takesPart(s)).map(ruleFormOf);
    const issues = [
      ...ruleIssuesOfChange(others, ruleFormOf(signer), ruleFormAfter(signer, patch), documents),
      ...accountIssues(account, { channel: fields.includes("channel") ? patch.channel : undefined }),
    ];
    if (issues.length > 0) throw invalid(issues);

    const updated = await tx.signer.update({ where: { id: signerId }, data: columnsOf(patch, fields, ctx.config.ENCRYPTION_KEYRING) });
    // A new role on a case file that is to be sent may make a signer who had nothing to sign a signer.
    if (cf.activate && signableDocumentsFor(documents, updated.role).length > 0 && !(await tx.signingLink.findUnique({ where: { signerId } }))) {
      const { token, tokenHash } = newSigningToken();
      await tx.signingLink.create({ data: { signerId, tokenHash, tokenEnc: encryptSecret(token, ctx.config.ENCRYPTION_KEY) } });
    }
    await recordLog(tx, [{ customerId: actor.customerId, caseFileId, signerId, event: "edited", audit: actor.audit, detail: { fields } }]);
    return updated;
  });
}
