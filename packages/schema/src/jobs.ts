import { z } from "zod";

/**
 * Queue names. Frozen: renaming one strands every job already waiting under the old name.
 */
export const QUEUE = {
  casefile: "casefile",
  events: "events",
  webhooks: "webhooks",
  notifications: "notifications",
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

interface JobSpec<S extends z.ZodType> {
  schema: S;
  /** BullMQ attempts; 1 means the handler's own retry logic (or none) applies. */
  attempts: number;
  backoffMs?: number;
}

const job = <S extends z.ZodType>(spec: JobSpec<S>): JobSpec<S> => spec;

/**
 * The id of a case file's send job (delayed to its sendAt): the casefile-worker, its sweeper and the
 * gateway's send of a draft enqueue it under this one id, so BullMQ keeps one.
 */
export const sendJobId = (caseFileId: number): string => `send-${caseFileId}`;

/** The most events one events/dispatch job carries (the outbox relay's batch is smaller). */
export const MAX_EVENTS_PER_DISPATCH = 1000;

/**
 * The job catalog: every queue's job names with the zod schema of their data. Producers are type
 * checked against it and consumers re-validate, so a bad payload fails loudly instead of half-running.
 * Job data carries ids only: no secrets, no personal data.
 */
export const jobCatalog = {
  casefile: {
    create: job({ schema: z.object({ creationJobId: z.uuid() }), attempts: 3, backoffMs: 1000 }),
    /**
     * Sends (or activates) a case file at its sendAt. `userLogged`: the user's send or activate of a
     * draft already wrote the log entry (with who and from where); the job writes none of its own.
     */
    send: job({ schema: z.object({ caseFileId: z.number().int().positive(), userLogged: z.boolean().optional() }), attempts: 5, backoffMs: 2000 }),
    "purge-jobs": job({ schema: z.object({}), attempts: 1 }),
    "requeue-pending": job({ schema: z.object({}), attempts: 1 }),
    /** Re-evaluates rounds and completion after a signer signed, was deleted or expired. Idempotent. */
    advance: job({ schema: z.object({ caseFileId: z.number().int().positive() }), attempts: 5, backoffMs: 1000 }),
    /** Signature pages on the signable PDFs, then status 5 (or 6 on error). */
    finalize: job({ schema: z.object({ caseFileId: z.number().int().positive() }), attempts: 3, backoffMs: 2000 }),
    /** Delayed to the case file's expireAt. */
    expire: job({ schema: z.object({ caseFileId: z.number().int().positive() }), attempts: 5, backoffMs: 2000 }),
    /** Delayed to a signer's expireAt. */
    "expire-signer": job({ schema: z.object({ signerId: z.number().int().positive() }), attempts: 5, backoffMs: 2000 }),
    /** Delayed to a signer's activeAt: the signer joins its (already reached) round. */
    "activate-signer": job({ schema: z.object({ signerId: z.number().int().positive() }), attempts: 5, backoffMs: 2000 }),
  },
  events: {
    /**
     * The events one outbox drain relayed that some subscription wants, in relay order. `{ eventId }`
     * is the shape of releases that dispatched one event per job: still accepted, so jobs waiting in
     * Redis across an upgrade run.
     */
    dispatch: job({
      schema: z.union([z.object({ eventIds: z.array(z.uuid()).min(1).max(MAX_EVENTS_PER_DISPATCH) }), z.object({ eventId: z.uuid() })]),
      attempts: 10,
      backoffMs: 1000,
    }),
  },
  webhooks: {
    /**
     * `slotAt` (ms): a throttled attempt whose turn was reserved for that time; it is made without
     * reserving again (waiting for a turn is no attempt and moves no ladder).
     */
    deliver: job({
      schema: z.object({ deliveryId: z.uuid(), attempt: z.number().int().min(1), slotAt: z.number().int().nonnegative().optional() }),
      attempts: 1,
    }),
    /** A recover task (WebhookRecoverTask): its deliveries are put back on a new ladder, batch by batch. */
    recover: job({ schema: z.object({ taskId: z.uuid() }), attempts: 10, backoffMs: 2000 }),
  },
  notifications: {
    "subscription-disabled": job({ schema: z.object({ subscriptionId: z.uuid() }), attempts: 5, backoffMs: 5000 }),
    /** The "deliveries failing" warning of the streak that began at `since` (ms). */
    "subscription-failing": job({ schema: z.object({ subscriptionId: z.uuid(), since: z.number().int().nonnegative() }), attempts: 5, backoffMs: 5000 }),
    /** The signing request of one activation of a signer (routed from sign.signer.requestActivated). */
    // customerId (set by the relay from the event; absent in jobs queued before it was): the mail
    // throttle is checked with it before any database work, so a held-back request costs one Redis read.
    "signing-request": job({
      schema: z.object({ signerId: z.number().int().positive(), eventId: z.uuid(), customerId: z.number().int().positive().optional() }),
      attempts: 5,
      backoffMs: 5000,
    }),
    /**
     * A signing request sent again on request (`PATCH signingrequests/{id}/send`): `resendId` names this
     * resend, so it goes out once however often its job runs, and a later resend goes out again.
     */
    "resend-request": job({ schema: z.object({ signerId: z.number().int().positive(), resendId: z.uuid() }), attempts: 5, backoffMs: 5000 }),
    /** Reminder number `sequence` (1, 2, ...), delayed by the signer's reminderInterval. */
    reminder: job({ schema: z.object({ signerId: z.number().int().positive(), sequence: z.number().int().min(1) }), attempts: 5, backoffMs: 5000 }),
    /** Completion mails to signers, cc recipients and the owner (routed from sign.casefile.completed). */
    completed: job({ schema: z.object({ caseFileId: z.number().int().positive() }), attempts: 5, backoffMs: 5000 }),
    /** An admin's invitation of a new user (POST /api/v3/users/invitations): the link is built from the row, never carried here. */
    "user-invitation": job({ schema: z.object({ invitationId: z.number().int().positive() }), attempts: 5, backoffMs: 5000 }),
  },
} as const;

export type JobCatalog = typeof jobCatalog;
export type JobNames<Q extends QueueName> = keyof JobCatalog[Q] & string;
export type JobData<Q extends QueueName, N extends JobNames<Q>> = JobCatalog[Q][N] extends JobSpec<infer S> ? z.infer<S> : never;
