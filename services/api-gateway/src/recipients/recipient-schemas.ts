import { z } from "zod";
import { editErrorMap, ZCcRecipient, ZCopyRecipientPatch } from "@esign/schema";
import { component } from "../contract/components";
import { withoutKeys, ZId } from "../contract/common-schemas";
import { ZCopyRecipient } from "../casefiles/casefile-schemas";

/*
 * What the copy-recipient routes take and answer: the create payload's `ccRecipients[]` rules (name,
 * email, storeAsContact), with the read-only keys of an answer ignored when it is PUT back.
 */

export const RECIPIENT_ERROR_MAP = editErrorMap;

export const ZRecipientParams = z.object({ id: ZId, recipientId: ZId });

export const ZCopyRecipientAdd = component(
  "CopyRecipientAdd",
  ZCcRecipient.describe("As in the create payload's `ccRecipients[]` (the SDKs send name and email; storeAsContact defaults to true)"),
);

const READ_ONLY = ["sdkClassName", "id", "caseFile"] as const;

export const ZCopyRecipientUpdate = component(
  "CopyRecipientUpdate",
  z.preprocess(withoutKeys(READ_ONLY), ZCopyRecipientPatch).describe(`Partial: an absent key is unchanged; ${READ_ONLY.join(", ")} are read-only and ignored`),
);

export const ZCopyRecipientList = component("CopyRecipientList", z.array(ZCopyRecipient));
