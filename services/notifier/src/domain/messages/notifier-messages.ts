/**
 * Every default text the notifier writes, one object per language (see `catalog.ts`). A signer's own
 * subject or text (emailSubject, emailText, ...) replaces the matching default; everything else is
 * from here, in the language the spec picks (signer, then case file, then the channel's default).
 */
export interface SignerMailMessages {
  /** Request and reminder */
  requestSubject(title: string): string;
  reminderSubject(title: string): string;
  greeting(name: string): string;
  requestIntro(sender: string, title: string): string;
  reminderIntro(sender: string, title: string): string;
  documentsHeading: string;
  /** sensitiveData: the documents are not named; this says why the signer will be asked who they are. */
  sensitiveNotice: string;
  signAction: string;
  /** The line above the raw link (text mails, and under the button in HTML ones). */
  linkIntro: string;
  /** Completion */
  completedSubject(title: string): string;
  completedIntro(title: string): string;
  completedOwnerIntro(title: string, caseFileId: string): string;
  attachedNotice: string;
  notAttachedNotice: string;
  notAttachedSensitiveNotice: string;
  ccNotice: string;
  ownerNotice: string;
  /** Footer of every mail: who sent it through which service. */
  footer(sender: string): string;
}

/**
 * signOnMeeting: the one mail to the case file's creator with the links of the signers whose turn it
 * is, for signing in person (the signers themselves get no request).
 */
export interface MeetingMailMessages {
  subject(title: string): string;
  intro(title: string): string;
  linksHeading: string;
  keepPrivate: string;
  /** Why the creator gets it. */
  reason: string;
}

/** The mail to a customer's developers when the retry ladder disabled a webhook subscription. */
export interface SubscriptionDisabledMessages {
  subject(endpoint: string): string;
  intro(customerName: string): string;
  endpoint: string;
  subscription: string;
  eventTypes: string;
  disabledAt: string;
  noEventTypes: string;
  whyHeading: string;
  /** Why it was disabled; `retries` is the ladder's 35. */
  why(retries: string): string;
  lastFailure(description: string): string;
  howHeading: string;
  stepAnswerFast: string;
  stepReEnable: string;
  resumeNotice: string;
  webApplicationNotice: string;
  reason(customerName: string): string;
  /** WebhookAttempt.cause values in words a developer can act on. */
  causes: {
    connectTimeout: string;
    responseTimeout: string;
    connectionRefused: string;
    tlsError: string;
    dnsError: string;
    non2xx(status: string): string;
    blockedAddress: string;
    networkError: string;
  };
}

/** The mail inviting a new user of a customer to the web application (POST /api/v3/users/invitations). */
export interface InvitationMessages {
  subject(customerName: string): string;
  intro(customerName: string): string;
  /** "as an administrator" / "as a member", after the intro. */
  asAdmin: string;
  asMember: string;
  acceptAction: string;
  expires(at: string): string;
  ignore: string;
}

export interface NotifierMessages {
  signer: SignerMailMessages;
  meeting: MeetingMailMessages;
  subscriptionDisabled: SubscriptionDisabledMessages;
  invitation: InvitationMessages;
}
