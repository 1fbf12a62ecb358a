import { z } from "zod";
import { CASEFILE_STATUS, ZCaseFile as ZCreateCaseFile } from "@esign/schema";
import { component } from "../contract/components";
import { describeCodes, ignoredReadOnly } from "../contract/common-schemas";
import { listKeys, once } from "../contract/list-query";
import { ZCaseFile } from "../casefiles/casefile-schemas";

/*
 * What the archive's routes take and answer (archive-contracts.ts): the case file list and its
 * filters as Penneo's SDKs send them, the document list, the update of a case file (PUT), and the
 * answers that are not the case file itself.
 */

/** The fields a case file list sorts by, as its clients name them. */
export const CASEFILE_SORTABLE = ["created", "title", "completed", "status", "id", "reference", "activated", "expireAt"] as const;
export type CaseFileSortField = (typeof CASEFILE_SORTABLE)[number];
export const DOCUMENT_SORTABLE = ["created", "title", "id"] as const;
export type DocumentSortField = (typeof DOCUMENT_SORTABLE)[number];

/** One query value (a key repeated with the same value counts once; different values: 400 naming it). */
const single = (schema: z.ZodType<string, string>) => z.preprocess(once, schema);

const MAX_LIST = 1000;
const csv = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** `7` or `7,8,9` (sdk-php's findBy(['folderIds' => ...]), Penneo's api-utils samples); empty: no filter. */
const idList = (what: string) =>
  single(z.string().max(20_000))
    .transform(csv)
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^\d{1,10}$/, `each ${what} must be a whole number`)
            .transform(Number),
        )
        .max(MAX_LIST, `at most ${MAX_LIST} ${what}s`)
        .pipe(z.array(z.number().int().positive().max(2_147_483_647))),
    )
    .optional();

const STATUS_VALUES: readonly number[] = Object.values(CASEFILE_STATUS);

/** `5` (sdk-php's findByStatus) or `1,5`. */
const statusList = single(z.string().max(200))
  .transform(csv)
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d{1,2}$/, "must be a status code")
          .transform(Number)
          .refine((n) => STATUS_VALUES.includes(n), { message: `must be one of ${describeCodes(CASEFILE_STATUS)}` }),
      )
      .min(1, "must name a status"),
  )
  .optional()
  .describe(`One status or a comma-separated list: ${describeCodes(CASEFILE_STATUS)}. 3 lists the recycle bin`);

/** Unix seconds, as both SDKs send dates (sdk-net's UpdateCriteriaDateTimesToUnix). */
const unixSeconds = (description: string) =>
  single(z.string().regex(/^\d{1,11}$/, "must be unix seconds (a whole number)"))
    .transform((s) => new Date(Number(s) * 1000))
    .optional()
    .describe(`${description} (unix seconds)`);

/** sdk-net sends True/False (C#'s ToString), sdk-php 1/0 (http_build_query). */
const flag = single(z.string())
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(["true", "false", "1", "0"], { message: "must be true or false" }))
  .transform((s) => s === "true" || s === "1")
  .optional();

const text = (max: number) => single(z.string().max(max));

export const ZCaseFileListQuery = z.strictObject({
  ...listKeys(CASEFILE_SORTABLE),
  title: text(1024).optional().describe("Case files whose title contains this text (case-insensitive)"),
  metaData: text(65_536).optional().describe("Case files whose metaData is exactly this"),
  reference: text(65_536).optional().describe("Case files whose reference is exactly this"),
  status: statusList,
  deleted: flag.describe("true: only the recycle bin (status 3); false or absent: without it (unless status names 3)"),
  folderIds: idList("folder id").describe("Case files in one of these folders: one id or a comma-separated list"),
  ids: idList("id").describe("These case files: a comma-separated list"),
  createdAfter: unixSeconds("Created at or after"),
  createdBefore: unixSeconds("Created before"),
  completedAfter: unixSeconds("Completed at or after"),
  completedBefore: unixSeconds("Completed before"),
  activatedAfter: unixSeconds("Sent (activated) at or after"),
  activatedBefore: unixSeconds("Sent (activated) before"),
  expiresAfter: unixSeconds("Expiring (expireAt) at or after"),
  expiresBefore: unixSeconds("Expiring (expireAt) before"),
  updatedAfter: unixSeconds("Last changed at or after"),
  updatedBefore: unixSeconds("Last changed before"),
});
export type CaseFileListQuery = z.output<typeof ZCaseFileListQuery>;

export const ZDocumentListQuery = z.strictObject({
  ...listKeys(DOCUMENT_SORTABLE),
  title: text(1024).optional().describe("Documents whose title contains this text (case-insensitive)"),
  metaData: text(65_536).optional().describe("Documents whose metaData is exactly this"),
});
export type DocumentListQuery = z.output<typeof ZDocumentListQuery>;

/**
 * A date of the update: unix seconds as at create, null or 0 unset (sdk-net reads an absent date as
 * null and a JSON null as 1970, which it PUTs back as 0).
 */
const updateDate = () =>
  ZCreateCaseFile.shape.sendAt
    .unwrap()
    .transform((s) => (s === null || s === 0 ? null : s))
    .optional();

/** A key of the case file's answer sent back unchanged by a client that PUTs what it read: ignored. */

/**
 * PUT /casefiles/{id}: the case file's own fields, each with the create payload's rule (the same
 * schema, so the same bounds and codes). Partial: an absent key is left as it is. What sdk-net and
 * sdk-php send back from a read (`id`, `status`, `activated`, `created`, ...) is accepted and ignored.
 */
export const ZCaseFileUpdate = component(
  "CaseFileUpdate",
  z.strictObject({
    title: ZCreateCaseFile.shape.title.optional(),
    language: ZCreateCaseFile.shape.language.unwrap().optional(),
    metaData: ZCreateCaseFile.shape.metaData,
    reference: ZCreateCaseFile.shape.reference,
    sendAt: updateDate().describe("When to send it once PATCH .../send is called (unix seconds; 0 or null: at once)"),
    expireAt: updateDate().describe("When it expires (unix seconds; 0 or null: never)"),
    visibilityMode: ZCreateCaseFile.shape.visibilityMode.unwrap().optional(),
    sensitiveData: z.boolean().optional(),
    disableNotificationsOwner: z.boolean().optional(),
    disableEmailAttachments: z.boolean().optional(),
    signOnMeeting: z.boolean().optional(),
    caseFileTypeId: z
      .int()
      .nullable()
      .optional()
      .superRefine((value, ctx) => {
        if (value !== null && value !== undefined) {
          ctx.addIssue({
            code: "custom",
            message: "case file types are not supported here: leave caseFileTypeId out or null",
            params: { code: "unsupported" },
          });
        }
      })
      .describe("Only null: there are no case file types here"),
    documentDisplayMode: z.literal([0, 1]).optional().describe("sdk-php always sends it: accepted and ignored (the signing page has one display)"),
    sdkClassName: ignoredReadOnly("sdkClassName"),
    id: ignoredReadOnly("id"),
    status: ignoredReadOnly("status"),
    activated: ignoredReadOnly("activated"),
    created: ignoredReadOnly("created"),
    completed: ignoredReadOnly("completed"),
    signIteration: ignoredReadOnly("signIteration"),
    userId: ignoredReadOnly("userId"),
    customerId: ignoredReadOnly("customerId"),
    folderId: ignoredReadOnly("folderId (folders link and unlink case files)"),
    signers: ignoredReadOnly("signers"),
    documents: ignoredReadOnly("documents"),
    copyRecipients: ignoredReadOnly("copyRecipients"),
    ccRecipients: ignoredReadOnly("ccRecipients"),
    createdAt: ignoredReadOnly("createdAt"),
    updatedAt: ignoredReadOnly("updatedAt"),
  }),
);
export type CaseFileUpdate = z.output<typeof ZCaseFileUpdate>;

export const ZCaseFileList = component("CaseFileList", z.array(ZCaseFile).describe("One page of the case files, as a plain JSON array"));

export const ZCaseFileErrors = component(
  "CaseFileErrors",
  z.array(z.string()).describe("What would stop sending the case file now (sdk-net GetErrorsAsync, sdk-php getErrors); [] when nothing would"),
);

export type CaseFileListView = z.input<typeof ZCaseFileList>;
