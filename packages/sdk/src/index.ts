export { EsignClient, CREATE_PATH, JOB_STATUS_PATH, CASE_FILES_PATH } from "./client";
export type { EsignClientOptions, CreateCaseFileOptions } from "./client";
export type { ClientCredentials, ApiKeyCredentials, Credentials } from "./token-manager";
export type { FetchFn } from "./http";
export { JOB_POLL_SPACING_MS } from "./wait-for-job";
export type { WaitForJobOptions } from "./wait-for-job";
export { Subscriptions, SUBSCRIPTIONS_PATH } from "./subscriptions";
export { CopyRecipients, PENNEO_API_PATH, Signers } from "./signers";
export type { SignerUpdate, SigningRequestUpdate } from "./signers";
export { CaseFiles, ARCHIVE_CASE_FILES_PATH, ARCHIVE_DOCUMENTS_PATH } from "./case-files";
export type { CaseFileSearch, CaseFileUpdate, DateFilter, DocumentSearch, ListOptions, Page } from "./case-files";
export type { SubscriptionCreate, SubscriptionUpdate, DeliveriesQuery, RecoverWindow } from "./subscriptions";
export { Folders, FOLDERS_PATH } from "./folders";
export type { Folder, FolderCreate, FolderListQuery, FolderUpdate } from "./folders";
export { Contacts, CONTACTS_PATH } from "./contacts";
export { CompanySettings, Sessions, Users, COMPANY_PATH, SESSION_PATH, USERS_PATH } from "./users";
export type { Company, CompanyChange, CompanyProfile, Invitation, InvitationInput, InvitationView, Role, Session, SsoConfig, User, UserChange } from "./users";
export type { SessionState } from "./api";
export { ApiCredentials, CREDENTIALS_PATH } from "./api-credentials";
export type { ApiCredential, IssuedApiCredential } from "./api-credentials";
export type { Contact, ContactCreate, ContactListQuery, ContactUpdate } from "./contacts";
export type { PageQuery } from "./list-query";
export { EsignApiError, EsignNetworkError, EsignResponseError, JobFailedError, JobTimeoutError } from "./errors";
export type { EsignApiErrorInit } from "./errors";
export { CASE_FILE_STATUS, SIGNER_STATUS, JOB_STATUSES } from "./schemas";
export type {
  CaseFile,
  CompletedJob,
  CopyRecipient,
  CreatedJob,
  DeliveryAttempt,
  DeliveryPage,
  Document,
  FieldError,
  Job,
  JobResult,
  JobStatus,
  LogEntry,
  Signer,
  SigningLink,
  SigningRequest,
  RecoverTask,
  RotatedSecret,
  Subscription,
  TokenResponse,
  WebhookEvent,
} from "./schemas";
export type {
  CaseFileInput,
  CcRecipientInput,
  Channel,
  DocumentInput,
  EmailFormat,
  InsecureSigningMethod,
  Language,
  SecureSigningMethod,
  SignerInput,
  SsnType,
  UploadFile,
} from "./case-file-input";
export { EVENT_TYPES, CASEFILE_EVENT_TYPES, SIGNER_EVENT_TYPES, TEST_EVENT_TYPE, isEventType } from "./event-types";
export type { EventType, EventTypeName } from "./event-types";
export { verifyWebhook, MemoryEventIdStore, parseSignatureHeader, parseWebhookEvent } from "./webhooks";
export type {
  EventIdStore,
  HeaderRecord,
  MemoryEventIdStoreOptions,
  VerifyFailureReason,
  VerifyResult,
  VerifyWebhookOptions,
} from "./webhooks";
export { EsignBrowserClient } from "./browser";
export type { BrowserClientOptions, SealCheck, UploadProgress } from "./browser";
