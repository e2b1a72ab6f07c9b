import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { BuyerIdentity, SellerIdentity } from "../../shared/domain/invoices";
import type { ReviewReportDecision } from "../../shared/domain/reviews";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Better Auth's tables, in snake_case (mapped with fieldName in auth.ts). */
export interface UsersTable {
  id: string;
  name: string;
  email: string;
  email_verified: boolean;
  image: string | null;
  /** Two-step sign-in turned on (ADR 098; Better Auth's two-factor plugin). */
  two_factor_enabled: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The authenticator's secret and recovery codes of a person (ADR 098), encrypted by Better Auth. */
export interface TwoFactorsTable {
  id: Generated<string>;
  user_id: string;
  secret: string;
  backup_codes: string;
  /** False while a setup waits for its first code. */
  verified: Generated<boolean>;
  failed_verification_count: Generated<number>;
  locked_until: Timestamp | null;
}

/** Authenticator codes that opened a session in the last 90 seconds (each signs in once). */
export interface TwoFactorUsedCodesTable {
  user_id: string;
  code: string;
  used_at: ColumnType<Date, Date | string, Date | string>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The `trust-device-…` record this sign-in remembered (two-step sign-in), if any. */
  remembered_device: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Timestamp | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** `profiles`: one per auth user, same id. */
export interface ProfilesTable {
  id: string;
  email: string;
  /** null only for an administrator who is neither patient nor dentist (migration 013). */
  role: "patient" | "dentist" | null;
  first_name: string;
  last_name: string;
  full_name: string;
  phone_number: string | null;
  city: string | null;
  bio: string;
  specialties: ColumnType<string[], string[] | undefined, string[]>;
  avatar_url: string | null;
  is_admin: Generated<boolean>;
  is_verified: Generated<boolean>;
  /** Dentists' verification: RPPS number (11 digits, Luhn key), practice address and postcode. */
  rpps: ColumnType<string | null, string | null | undefined, string | null>;
  practice_address: ColumnType<string | null, string | null | undefined, string | null>;
  practice_postcode: ColumnType<string | null, string | null | undefined, string | null>;
  /** Patients, optional (migration 025): 5 digits, checked against the communes dataset (ADR 019). */
  postal_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the dentist asked to be verified; the state is derived (verificationStateOf). */
  verification_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The last admin decision on the verification, and the reason given for a refusal. */
  verification_decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  verification_refusal_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Patients, optional: 'YYYY-MM-DD' (read as text, see db/index.ts). */
  birth_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last sign-in (retention: inactive accounts), and when the inactivity e-mail went out. */
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  inactivity_warned_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Set on the pseudonym that replaces an erased account (migration 018): it never signs in. */
  erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Suspended by the team (migration 056, ADR 092): when, and the reason the person was told. */
  suspended_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  suspension_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the suspension lifts by itself (ADR 092's addendum); null: the team lifts it. */
  suspension_ends_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Consent to the terms and the privacy policy at sign-up (migration 023): when, which version. */
  terms_accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  terms_version: ColumnType<string | null, string | null | undefined, string | null>;
  /** The e-mails one may stop (migration 051, ADR 081), each on by default. */
  email_messages: Generated<boolean>;
  email_reminders: Generated<boolean>;
  email_reviews: Generated<boolean>;
  /** A dentist's morning e-mail of new requests sent to all (ADR 086). */
  email_new_requests: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Who did what to whom: verification changes, admin grants, document access later. */
export interface AuditLogTable {
  id: Generated<string>;
  actor_id: string | null;
  action: string;
  subject_type: string;
  subject_id: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: Timestamp;
}

export interface ContactSubmissionsTable {
  id: Generated<string>;
  name: string;
  email: string;
  treatment_type: string | null;
  message: string;
  file_key: string | null;
  file_name: string | null;
  file_size: number | null;
  file_type: string | null;
  read_at: Timestamp | null;
  handled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  handled_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface RequestsTable {
  id: Generated<string>;
  patient_id: string;
  treatment_type: string;
  description: Generated<string>;
  budget: Generated<string>;
  quote_amount_cents: number | null;
  /** The date printed on the patient's devis ('YYYY-MM-DD'): its lines use that day's tariffs. */
  quote_date: string | null;
  urgency: Generated<string>;
  recipient_dentist_id: string | null;
  status: Generated<string>;
  cancelled_at: Timestamp | null;
  /** The consent given at sending (migration 019): the wording's version and text, and when. */
  consent_version: Generated<string>;
  consent_text: Generated<string>;
  consent_at: Generated<Date>;
  /** When the patient withdrew it: the request is then cancelled (closed to dentists). */
  consent_withdrawn_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The form's id of this sending (migration 066, ADR 101): a retry finds the request it saved. */
  submission_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * Kept by the database (migration 039, ADR 057 addendum), never written by the application: its
   * documents, its offers still 'sent', its newest live appointment's status and time.
   */
  document_count: Generated<number>;
  sent_offers: Generated<number>;
  appointment_status: Generated<"pending" | "confirmed" | null>;
  appointment_starts_at: Generated<Date | null>;
  /**
   * Kept by the database (migration 043), never written by the application: the dentist whose offer
   * on it is accepted, or null. Orders the dentist's list; access still reads `offers`.
   */
  chosen_dentist_id: Generated<string | null>;
  /**
   * A request addressed by name: when the mail job told its dentist, or found nothing to tell
   * (migration 047); null while it is still to settle, and on a request sent to all.
   */
  recipient_mailed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * A request addressed by name: when the mail job told its patient that the dentist no longer
   * receives requests (migration 050); null while he does, or once he does again.
   */
  recipient_away_mailed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface DocumentsTable {
  id: Generated<string>;
  request_id: string;
  owner_id: string;
  storage_key: string;
  file_name: string;
  size: number;
  mime_type: string;
  document_type: Generated<string>;
  position: Generated<number>;
  created_at: Timestamp;
}

export interface DocumentAccessTable {
  id: Generated<string>;
  /** The document read; null for the other reads (migration 017). */
  document_id: string | null;
  /** The request read; null for a read of the patient's support thread (migration 020). */
  request_id: string | null;
  /** The patient whose support thread was read; null for the other reads. */
  support_patient_id: ColumnType<string | null, string | null | undefined, never>;
  actor_id: string | null;
  actor_name: string;
  actor_kind: "dentist" | "admin";
  action: AccessAction;
  /** The name of what was read when it is not a document (a chat attachment's file name). */
  object_name: ColumnType<string | null, string | null | undefined, never>;
  created_at: Timestamp;
}

/** Every kind of read the patient's access history records. */
export type AccessAction =
  | "view"
  | "download"
  | "request_view"
  | "attachment_view"
  | "attachment_download"
  | "support_thread_view"
  | "support_image_view";

export interface RequestDentistsTable {
  request_id: string;
  dentist_id: string;
  status: Generated<"pending" | "responded" | "confirmed">;
  opened_at: Timestamp | null;
  assigned_at: Timestamp | null;
  replied_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** From the request's creation to the reply, in seconds (numeric, kept by a trigger: migration 042). */
  response_seconds: string | null;
  /** When the dentist set the request aside (« Ne pas donner suite », migration 055); null: not set aside. */
  set_aside_at: Timestamp | null;
}

export interface ConversationsTable {
  id: Generated<string>;
  request_id: string;
  patient_id: string;
  dentist_id: string;
  last_message_at: Timestamp;
  created_at: Timestamp;
  /** When each party was last e-mailed about unread messages here (at most hourly). */
  patient_notified_at: Timestamp | null;
  dentist_notified_at: Timestamp | null;
  /**
   * The messages each party has not read, and the newest message: kept by the messages' triggers
   * (migration 038), never written by the application.
   */
  patient_unread: Generated<number>;
  dentist_unread: Generated<number>;
  last_message_id: Generated<string | null>;
}

export interface MessageAttachmentsTable {
  id: Generated<string>;
  message_id: string;
  storage_key: string;
  file_name: string;
  mime_type: string;
  size: number;
  position: Generated<number>;
}

export interface MessagesTable {
  id: Generated<string>;
  conversation_id: string;
  sender_id: string | null;
  body: Generated<string>;
  read_at: Timestamp | null;
  created_at: Timestamp;
  /** Its attachments: kept by their triggers (migration 039), never written by the application. */
  attachment_count: Generated<number>;
}

export interface OffersTable {
  id: Generated<string>;
  request_id: string;
  dentist_id: string;
  amount_cents: number;
  comment: Generated<string>;
  /** 'YYYY-MM-DD' (a Paris calendar day). */
  valid_until: string | null;
  status: Generated<"sent" | "accepted" | "closed" | "withdrawn">;
  decided_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * Accepted: the devis's price its own is compared with, like with like (migration 048,
   * `comparedQuoteCents`); null when that cannot be known, and while not accepted.
   */
  compared_quote_cents: ColumnType<number | null, number | null | undefined, number | null>;
  /** When the patient was reminded that it is about to expire (migration 054, ADR 087). */
  expiry_reminded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface OfferLinesTable {
  id: Generated<string>;
  offer_id: string;
  position: number;
  act: string;
  tooth: number | null;
  fee_cents: number;
  code: string | null;
  basket: Generated<"100_sante" | "maitrise" | "libre">;
  br_cents: Generated<number>;
  ceiling_cents: number | null;
}

/** The lines of a patient's original devis (issue 15), same shape as an offer's. */
export interface RequestQuoteLinesTable {
  id: Generated<string>;
  request_id: string;
  position: number;
  code: string | null;
  act: string;
  tooth: number | null;
  fee_cents: number;
  basket: "100_sante" | "maitrise" | "libre";
  br_cents: number;
  ceiling_cents: number | null;
}

/** A reading of an uploaded devis (issue 17, migration 026); the raw text is the object text_key. */
export interface QuoteReadingsTable {
  id: Generated<string>;
  request_id: string;
  document_id: string;
  status: ColumnType<ReadingRowStatus, ReadingRowStatus | undefined, ReadingRowStatus>;
  kind: ColumnType<
    "text_pdf" | "scanned_pdf" | "image" | null,
    "text_pdf" | "scanned_pdf" | "image" | null | undefined,
    "text_pdf" | "scanned_pdf" | "image" | null
  >;
  pages: Generated<number>;
  /** ReadResult (shared/schemas/reading.ts) once done. */
  result: ColumnType<unknown | null, string | null | undefined, string | null>;
  text_key: ColumnType<string | null, string | null | undefined, string | null>;
  message: ColumnType<string | null, string | null | undefined, string | null>;
  attempts: Generated<number>;
  created_at: Timestamp;
  started_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  confirmed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  dismissed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** ReadingChoice[] (shared/schemas/reading.ts): the patient's choices on confirming (migration 032). */
  choices: ColumnType<unknown | null, string | null | undefined, string | null>;
  /** 'classify': a document not typed 'Devis', read only if recognised as one (migration 032). */
  purpose: ColumnType<"read" | "classify", "read" | "classify" | undefined, "read" | "classify">;
}

/** A reading's row status: 'not_quote' is a document classified as not a devis (migration 032). */
export type ReadingRowStatus = "pending" | "running" | "done" | "failed" | "not_quote";

/** 'Ma mutuelle' (issue 15): one row per patient who gave it. */
export interface PatientCoversTable {
  patient_id: string;
  percent_of_br: number;
  ro_included: boolean;
  annual_ceiling_cents: number | null;
  implant_allowance_cents: number | null;
  responsible: boolean;
  updated_at: Timestamp;
}

export interface OfferSlotsTable {
  id: Generated<string>;
  offer_id: string;
  starts_at: Timestamp;
}

export interface AppointmentsTable {
  id: Generated<string>;
  request_id: string;
  offer_id: string;
  patient_id: string;
  dentist_id: string;
  status: "pending" | "confirmed" | "cancelled";
  awaiting: "patient" | "dentist" | null;
  starts_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  cancelled_by: "patient" | "dentist" | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the patient was told that the dentist is no longer verified (ADR 093); emptied once he is again. */
  dentist_away_mailed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface AppointmentOptionsTable {
  appointment_id: string;
  starts_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AppointmentRemindersTable {
  appointment_id: string;
  kind: "7d" | "1d";
  due_at: ColumnType<Date, Date | string, Date | string>;
  sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Non-cancelled requests per audience ('all' or the recipient dentist's id), type and Paris month (kept by triggers). */
export interface RequestTalliesTable {
  audience: string;
  treatment_type: string;
  /** 'YYYY-MM-DD', the first day of the month in Europe/Paris. */
  month: string;
  requests: number;
}

/**
 * The requests received per audience and Paris month, all but the cancelled ones (migration 065,
 * kept by triggers): the dentist dashboard's « Demandes reçues ».
 */
export interface RequestMonthTalliesTable {
  audience: string;
  /** 'YYYY-MM-DD', the first day of the month in Europe/Paris. */
  month: string;
  received: number;
}

/** A dentist's answered rows on requests still open to him (migration 041, kept by triggers). */
export interface DentistTalliesTable {
  dentist_id: string;
  answered: Generated<number>;
  /** His pending rows set aside on requests still open to him (migration 055). */
  set_aside: Generated<number>;
}

/** A dentist's replies and confirmations per month in Europe/Paris (migration 041, kept by triggers). */
export interface DentistMonthTalliesTable {
  dentist_id: string;
  /** 'YYYY-MM-DD', the first day of the month in Europe/Paris. */
  month: string;
  replies: Generated<number>;
  confirmations: Generated<number>;
}

export interface SupportThreadsTable {
  /** The thread's owner, patient or dentist (the name predates dentists' support, ADR 018). */
  patient_id: string;
  /** The owner's role, for the team's filter (migration 024). */
  role: ColumnType<"patient" | "dentist", "patient" | "dentist" | undefined, "patient" | "dentist">;
  last_message_at: Timestamp;
  patient_notified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SupportMessagesTable {
  id: Generated<string>;
  patient_id: string;
  sender_id: string | null;
  from_team: boolean;
  body: Generated<string>;
  image_key: string | null;
  image_name: string | null;
  image_type: string | null;
  image_size: number | null;
  /** The request the message is about ('Besoin d'aide ?' on a request page, migration 024). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

/** Windowed login-throttling counters (migration 012, throttle/login-throttle.ts). */
export interface JobRunsTable {
  job: string;
  run_on: string;
  started_at: Generated<Date>;
  finished_at: Date | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface LoginAttemptsTable {
  scope: "ip" | "ip_requests" | "account_ip" | "account" | "device" | "own_password";
  /** HMAC of the e-mail, IP or device id: no address in clear. */
  subject: string;
  count: number;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

/** A dentist's billing identity (issue 35, migration 034): printed as the buyer on Sourio's invoices. */
export interface BillingProfilesTable {
  dentist_id: string;
  practice_name: string;
  address: string;
  postal_code: string;
  city: string;
  siren: string;
  updated_at: Timestamp;
}

/** One row per numbering series; `last_number` is taken with update … returning (migration 034). */
export interface InvoiceCountersTable {
  series: "invoice" | "credit_note";
  last_number: number;
}

/** Invoices and credit notes (migration 034): immutable once inserted (a trigger refuses changes). */
export interface InvoicesTable {
  id: Generated<string>;
  kind: "invoice" | "credit_note";
  sequence: number;
  number: string;
  dentist_id: string;
  payment_ref: string | null;
  refers_to: string | null;
  reason: string | null;
  issued_at: ColumnType<Date, Date | string, never>;
  /** 'YYYY-MM-DD' (read as text, see db/index.ts). */
  period_start: ColumnType<string, string, never>;
  period_end: ColumnType<string, string, never>;
  label: string;
  amount_ht_cents: number;
  vat_rate_bp: number;
  vat_cents: number;
  amount_ttc_cents: number;
  seller: ColumnType<SellerIdentity, string, never>;
  buyer: ColumnType<BuyerIdentity, string, never>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** The stored Factur-X PDF of an invoice, written once (migration 034). */
export interface InvoiceFilesTable {
  invoice_id: string;
  storage_key: string;
  size: number;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** Verified patient reviews (migration 035, ADR 046). */
export interface ReviewsTable {
  id: Generated<string>;
  /** null once the appointment row is gone (the review keeps its copied time). */
  appointment_id: string | null;
  patient_id: string;
  dentist_id: string;
  appointment_starts_at: ColumnType<Date, Date | string, Date | string>;
  rating: number;
  explanations: number | null;
  listening: number | null;
  punctuality: number | null;
  text: string;
  author_title: "patiente" | "patient";
  status: ColumnType<"pending" | "published" | "refused", "pending" | "published" | "refused" | undefined>;
  flags: ColumnType<string[], string[] | undefined, string[]>;
  refusal_reason: string | null;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  decided_by: string | null;
  published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  answer: ColumnType<string | null, string | null | undefined, string | null>;
  answered_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReviewReportsTable {
  id: Generated<string>;
  review_id: string;
  dentist_id: string;
  reason: string;
  /** The review's `updated_at` when reported: the version of the text the report is about (migration 044). */
  review_version: ColumnType<Date, Date | string, Date | string>;
  /** Closed by the team's decision (migration 044); null while open. */
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  closed_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** kept: the review stayed online; withdrawn: the team withdrew it. Null while open. */
  decision: ColumnType<
    ReviewReportDecision | null,
    ReviewReportDecision | null | undefined,
    ReviewReportDecision | null
  >;
  created_at: Timestamp;
}

export interface ReviewInvitationsTable {
  appointment_id: string;
  sent_at: ColumnType<Date, Date | string, Date | string>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  two_factors: TwoFactorsTable;
  two_factor_used_codes: TwoFactorUsedCodesTable;
  profiles: ProfilesTable;
  audit_log: AuditLogTable;
  contact_submissions: ContactSubmissionsTable;
  job_runs: JobRunsTable;
  requests: RequestsTable;
  documents: DocumentsTable;
  document_access: DocumentAccessTable;
  request_dentists: RequestDentistsTable;
  request_tallies: RequestTalliesTable;
  request_month_tallies: RequestMonthTalliesTable;
  dentist_tallies: DentistTalliesTable;
  dentist_month_tallies: DentistMonthTalliesTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  message_attachments: MessageAttachmentsTable;
  support_threads: SupportThreadsTable;
  support_messages: SupportMessagesTable;
  offers: OffersTable;
  offer_lines: OfferLinesTable;
  request_quote_lines: RequestQuoteLinesTable;
  quote_readings: QuoteReadingsTable;
  patient_covers: PatientCoversTable;
  offer_slots: OfferSlotsTable;
  appointments: AppointmentsTable;
  appointment_options: AppointmentOptionsTable;
  appointment_reminders: AppointmentRemindersTable;
  login_attempts: LoginAttemptsTable;
  reviews: ReviewsTable;
  review_reports: ReviewReportsTable;
  review_invitations: ReviewInvitationsTable;
  billing_profiles: BillingProfilesTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoice_files: InvoiceFilesTable;
  subscriptions: SubscriptionsTable;
  billing_events: BillingEventsTable;
  checkout_leases: CheckoutLeasesTable;
}

/** A dentist's subscription (migration 033, ADR 044): one row from his verification on. */
export interface SubscriptionsTable {
  dentist_id: string;
  status: "trialing" | "active" | "past_due" | "canceled" | "unpaid";
  status_since: ColumnType<Date, Date, Date>;
  trial_ends_at: ColumnType<Date, Date, Date>;
  /** When his access becomes limited (the domain's limitedFrom); null: nothing planned. */
  limited_from: ColumnType<Date | null, Date | null, Date | null>;
  plan: "monthly" | "yearly" | null;
  customer_id: string | null;
  subscription_id: string | null;
  current_period_end: ColumnType<Date | null, Date | null | undefined, Date | null>;
  cancel_at_period_end: Generated<boolean>;
  last_event_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  trial_warned_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** A change of plan asked for (migration 061, ADR 096): the plan at `next_plan_at`, the period's end. */
  next_plan: "monthly" | "yearly" | null;
  next_plan_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A checkout being opened for a dentist, until `until` (migration 045): one at a time. */
export interface CheckoutLeasesTable {
  dentist_id: string;
  until: ColumnType<Date, Date, Date>;
}

/** The payment provider's events, each stored once in the transaction that applies it. */
export interface BillingEventsTable {
  id: string;
  type: string;
  received_at: Timestamp;
}

export type ProfileRow = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;
