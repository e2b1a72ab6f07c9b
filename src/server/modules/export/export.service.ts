import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { reviewAuthorLabel } from "../../../shared/domain/reviews";
import { parisToday } from "../../../shared/policies/offers";
import type { QuoteReading } from "../../../shared/schemas/reading";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { isVerifiedDentist } from "../../access/rules";
import { avatarKeyOf } from "../../db/file-keys";
import type { Db } from "../../db/index";
import { linesOf } from "../../db/offer-details";
import { servedFileName, uniqueName } from "../../files/names";
import type { Storage } from "../../storage/storage";
import { invoiceFileName, storedInvoicePdf, toInvoiceDto } from "../invoices/invoices.files";
import { ownInvoicesRepo } from "../invoices/invoices.repo";
import { readingsForExport } from "../reading/reading.repo";
import { toQuoteReading } from "../reading/reading.service";
import { readAll } from "../reading/runner";
import { reviewsForExport } from "../reviews/reviews.repo";
import { deviceLabel } from "../security/device";
import { DATA_FILE, FOLDERS, README_FILE, readme } from "./export.readme";
import { exportRepo } from "./export.repo";

/*
 * "Télécharger mes données" (RGPD art. 15 and 20): one zip with a machine-readable JSON of
 * everything Sourio holds about the person, every file the person uploaded, and a README in
 * French. This module gathers the rows and the list of files; the route streams the archive, the
 * files read one at a time from storage (never the whole archive in memory). The README's text is
 * in export.readme.ts; the JSON's shape stays in one function here, so that it reads as one document.
 */

export interface Deps {
  db: Db;
  storage: Storage;
  clock: () => Date;
  brandName: string;
  log: { error(obj: object, msg: string): void };
}

export { DATA_FILE, README_FILE };

export const EXPORT_FORMAT_VERSION = 1;
export const EXPORT_ACTION = "account.data_exported";

/** A file of the archive: its path inside the zip and its storage key. */
export interface ExportFile {
  path: string;
  key: string;
  mtime: Date;
}

/** The archive's name (sourio-mes-donnees-YYYY-MM-DD.zip, Paris day), the JSON, the README, the files. */
export type ExportBundle = Awaited<ReturnType<typeof buildExport>>;
/** The content of mes-donnees.json. */
export type ExportData = ExportBundle["data"];

interface ExportedDocument {
  id: string;
  file_name: string;
  document_type: string;
  mime_type: string;
  size: number;
  uploaded_at: string | null;
  /** Its path in the archive; null when storage no longer holds it. */
  file: string | null;
}

interface ExportedAttachment {
  id: string;
  file_name: string;
  mime_type: string;
  size: number;
  file: string | null;
}

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);

/** A review's row with its dates as ISO strings. */
function reviewDates<
  V extends {
    appointment_starts_at: Date;
    published_at: Date | null;
    answered_at: Date | null;
    created_at: Date;
    updated_at: Date;
  },
>(v: V) {
  return {
    ...v,
    appointment_starts_at: iso(v.appointment_starts_at),
    published_at: iso(v.published_at),
    answered_at: iso(v.answered_at),
    created_at: iso(v.created_at),
    updated_at: iso(v.updated_at),
  };
}

/**
 * Gathers the person's data (every read bound to the actor) and the files to put in the archive,
 * and records the export in the audit trail (without content).
 */
export async function buildExport(deps: Deps, actor: Actor) {
  const repo = exportRepo(deps.db, actor);
  const now = deps.clock();
  const me = actor.userId;

  const [profile, cover, lists, attachments, appointments, readingRows, reviews] = await Promise.all([
    repo.profile(),
    repo.cover(),
    repo.lists(),
    repo.attachments(),
    repo.appointments(),
    readingsForExport(deps.db, actor),
    reviewsForExport(deps.db, actor),
  ]);
  const { requests, quoteLines, documents, offersReceived, offersSent, messages } = lists;
  // The readings of the patient's devis (issue 17): what was read, and the raw text read.
  const readings: Array<Omit<QuoteReading, "status"> & { status: string; text: string | null }> = [];
  for (const row of readingRows) {
    const text = row.text_key
      ? await readAll(deps.storage.read(row.text_key), MAX_FILE_SIZE)
          .then((bytes) => Buffer.from(bytes).toString("utf8"))
          .catch(() => null)
      : null;
    readings.push({ ...toQuoteReading(row), status: row.status, text });
  }
  const offerDetails = await repo.offerDetails([...offersReceived, ...offersSent].map((o) => o.id));

  // Files: only what the person uploaded, and only what storage still holds.
  const files: ExportFile[] = [];
  const used = new Set<string>();
  const addFile = async (
    folder: string,
    key: string,
    name: string,
    mime: string | null,
    at: Date | string,
  ): Promise<string | null> => {
    if ((await deps.storage.size(key)) === null) {
      deps.log.error({ folder }, "fichier absent du stockage (export des données)");
      return null;
    }
    const path = `${folder}/${uniqueName(servedFileName(name, mime), used)}`;
    files.push({ path, key, mtime: new Date(at) });
    return path;
  };
  const inFolder = (base: string, id: string) => `${base}/${id.slice(0, 8)}`;

  // Sourio's invoices to a dentist (issue 35): the rows and their Factur-X PDFs.
  const ownInvoices = ownInvoicesRepo(deps.db, actor);
  const dentist = actor.profile.role === "dentist";
  const billingProfile = dentist ? ((await ownInvoices.billingProfile()) ?? null) : null;
  const invoices = [];
  for (const row of dentist ? await ownInvoices.allInvoices() : []) {
    const stored = await storedInvoicePdf(deps, row).catch((error: unknown) => {
      deps.log.error({ invoiceId: row.id, err: error }, "facture : PDF indisponible (export des données)");
      return null;
    });
    const file = stored
      ? await addFile(FOLDERS.invoices, stored.key, invoiceFileName(row), "application/pdf", row.issued_at)
      : null;
    invoices.push({ ...toInvoiceDto(row), seller: row.seller, buyer: row.buyer, file });
  }

  const documentsByRequest = new Map<string, ExportedDocument[]>();
  for (const d of documents) {
    const file = await addFile(
      inFolder(FOLDERS.documents, d.request_id),
      d.storage_key,
      d.file_name,
      d.mime_type,
      d.created_at,
    );
    const list = documentsByRequest.get(d.request_id) ?? [];
    list.push({
      id: d.id,
      file_name: d.file_name,
      document_type: d.document_type,
      mime_type: d.mime_type,
      size: d.size,
      uploaded_at: iso(d.created_at),
      file,
    });
    documentsByRequest.set(d.request_id, list);
  }

  const myAttachments = new Map<string, ExportedAttachment[]>();
  const messageConversation = new Map(messages.map((m) => [m.id, m.conversation_id]));
  for (const a of attachments.mine) {
    const conversationId = messageConversation.get(a.message_id) ?? a.message_id;
    const file = await addFile(
      inFolder(FOLDERS.messages, conversationId),
      a.storage_key,
      a.file_name,
      a.mime_type,
      a.created_at,
    );
    const list = myAttachments.get(a.message_id) ?? [];
    list.push({ id: a.id, file_name: a.file_name, mime_type: a.mime_type, size: a.size, file });
    myAttachments.set(a.message_id, list);
  }

  const supportMessages = [];
  for (const m of lists.support) {
    const mine = !m.from_team && (m.sender_id === null || m.sender_id === me);
    const image =
      m.image_key && mine
        ? {
            file_name: m.image_name,
            mime_type: m.image_type,
            size: m.image_size,
            file: await addFile(
              FOLDERS.support,
              m.image_key,
              m.image_name ?? "image",
              m.image_type,
              m.created_at,
            ),
          }
        : null;
    supportMessages.push({
      id: m.id,
      from: m.from_team ? "team" : "me",
      body: m.body,
      image,
      ...(m.image_key && !mine ? { team_image_not_included: true } : {}),
      read_at: iso(m.read_at),
      sent_at: iso(m.created_at),
    });
  }

  const avatarKey = avatarKeyOf(profile?.avatar_url ?? null);
  const avatarFile = avatarKey?.startsWith(`avatars/${me}/`)
    ? await addFile(
        FOLDERS.avatar,
        avatarKey,
        "photo-de-profil.webp",
        "image/webp",
        profile?.updated_at ?? now,
      )
    : null;

  const slotsOf = (offerId: string) =>
    offerDetails.slots.filter((s) => s.offer_id === offerId).map((s) => iso(s.starts_at));
  /** An offer with the other party's fields: what it says is the same whether received or sent. */
  const exportedOffer = (
    o: (typeof offersReceived)[number] | (typeof offersSent)[number],
    party: { dentist_id: string; dentist_name: string } | { patient_name: string; treatment_type: string },
  ) => ({
    id: o.id,
    request_id: o.request_id,
    ...party,
    amount_cents: o.amount_cents,
    comment: o.comment,
    valid_until: o.valid_until,
    status: o.status,
    decided_at: iso(o.decided_at),
    lines: linesOf(offerDetails.lines, o.id),
    proposed_slots: slotsOf(o.id),
    created_at: iso(o.created_at),
    updated_at: iso(o.updated_at),
  });

  const messagesOf = (conversationId: string) =>
    messages
      .filter((m) => m.conversation_id === conversationId)
      .map((m) => ({
        id: m.id,
        from: m.sender_id === me ? "me" : m.sender_id === null ? "system" : "other_party",
        body: m.body,
        attachments: myAttachments.get(m.id) ?? [],
        ...(attachments.othersPerMessage.has(m.id)
          ? { other_party_attachments_not_included: attachments.othersPerMessage.get(m.id) }
          : {}),
        read_at: iso(m.read_at),
        sent_at: iso(m.created_at),
      }));

  const data = {
    format: "sourio-export",
    version: EXPORT_FORMAT_VERSION,
    exported_at: now.toISOString(),
    service: deps.brandName,
    profile: profile
      ? {
          ...profile,
          verification_requested_at: iso(profile.verification_requested_at),
          verification_decided_at: iso(profile.verification_decided_at),
          last_seen_at: iso(profile.last_seen_at),
          inactivity_warned_at: iso(profile.inactivity_warned_at),
          terms_accepted_at: iso(profile.terms_accepted_at),
          created_at: iso(profile.created_at),
          updated_at: iso(profile.updated_at),
          avatar_file: avatarFile,
        }
      : null,
    requests: requests.map((r) => ({
      id: r.id,
      treatment_type: r.treatment_type,
      description: r.description,
      budget: r.budget,
      quote_amount_cents: r.quote_amount_cents,
      quote_date: r.quote_date,
      urgency: r.urgency,
      status: r.status,
      sent_to: r.recipient_dentist_id
        ? { dentist_id: r.recipient_dentist_id, dentist_name: r.recipient_dentist_name }
        : "all_verified_dentists",
      cancelled_at: iso(r.cancelled_at),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
      quote_lines: quoteLines
        .filter((l) => l.request_id === r.id)
        .map(({ request_id: _request, position: _position, ...line }) => line),
      documents: documentsByRequest.get(r.id) ?? [],
      devis_readings: readings
        .filter((reading) => reading.request_id === r.id)
        .map(({ request_id: _request, ...reading }) => reading),
    })),
    mutuelle: cover ? { ...cover, updated_at: iso(cover.updated_at) } : null,
    offers_received: offersReceived.map((o) =>
      exportedOffer(o, { dentist_id: o.dentist_id, dentist_name: o.dentist_name }),
    ),
    requests_followed: lists.requestsFollowed.map((f) => ({
      request_id: f.request_id,
      status: f.status,
      opened_at: iso(f.opened_at),
      assigned_at: iso(f.assigned_at),
      replied_at: iso(f.replied_at),
      // When he set it aside (« Écartée », ADR 091), if he did.
      set_aside_at: iso(f.set_aside_at),
      created_at: iso(f.created_at),
      updated_at: iso(f.updated_at),
    })),
    offers_sent: offersSent.map((o) =>
      exportedOffer(o, { patient_name: o.patient_name, treatment_type: o.treatment_type }),
    ),
    conversations: lists.conversations.map((c) => {
      const iAmPatient = c.patient_id === me;
      return {
        id: c.id,
        request_id: c.request_id,
        my_side: iAmPatient ? "patient" : "dentist",
        other_party: iAmPatient
          ? { role: "dentist", id: c.dentist_id, name: c.dentist_name }
          : { role: "patient", id: c.patient_id, name: c.patient_name },
        created_at: iso(c.created_at),
        last_message_at: iso(c.last_message_at),
        messages: messagesOf(c.id),
      };
    }),
    appointments: appointments.rows.map((a) => {
      const iAmPatient = a.patient_id === me;
      return {
        id: a.id,
        request_id: a.request_id,
        offer_id: a.offer_id,
        my_side: iAmPatient ? "patient" : "dentist",
        other_party: iAmPatient
          ? {
              role: "dentist",
              name: a.dentist_name,
              practice_address: a.practice_address,
              practice_postcode: a.practice_postcode,
              city: a.dentist_city,
            }
          : { role: "patient", name: a.patient_name },
        status: a.status,
        awaiting: a.awaiting,
        starts_at: iso(a.starts_at),
        proposed_times: appointments.options
          .filter((o) => o.appointment_id === a.id)
          .map((o) => iso(o.starts_at)),
        cancelled_by: a.cancelled_by,
        created_at: iso(a.created_at),
        updated_at: iso(a.updated_at),
      };
    }),
    billing_profile: billingProfile,
    invoices,
    reviews: {
      written: reviews.written.map(({ dentist_name, ...v }) => ({
        ...reviewDates(v),
        about_dentist: dentist_name,
      })),
      about_me: [
        ...reviews.about.map(({ patient_first_name, patient_last_name, ...v }) => ({
          ...reviewDates(v),
          author: reviewAuthorLabel(patient_first_name, patient_last_name, v.author_title),
        })),
        // A dentist not verified: his answers alone, nothing of the patient's review (D6).
        ...reviews.answersOnly.map((a) => ({ ...a, answered_at: iso(a.answered_at) })),
      ],
      my_reports: reviews.reports.map((r) => ({
        ...r,
        created_at: iso(r.created_at),
        closed_at: iso(r.closed_at),
      })),
    },
    support_messages: supportMessages,
    access_history: {
      reads_of_my_data: lists.readsOfMyData.map((a) => ({
        id: a.id,
        request_id: a.request_id,
        document_id: a.document_id,
        object_name: a.document_name ?? a.object_name,
        read_by: a.actor_name,
        reader_kind: a.actor_kind,
        action: a.action,
        at: iso(a.created_at),
      })),
      my_reads_of_patient_data: lists.myReads.map((a) => ({
        id: a.id,
        request_id: a.request_id,
        document_id: a.document_id,
        action: a.action,
        at: iso(a.created_at),
      })),
    },
    consents: [
      ...(actor.profile.role === "dentist"
        ? [
            {
              kind: "terms_of_use",
              given_at: iso(profile?.created_at),
              basis: "Conditions d'utilisation acceptées à l'inscription du dentiste (case obligatoire).",
            },
          ]
        : []),
      ...requests.map((r) => ({
        kind: "document_sharing",
        request_id: r.id,
        version: r.consent_version,
        text: r.consent_text || null,
        given_at: iso(r.consent_at),
        withdrawn_at: iso(r.consent_withdrawn_at),
        shared_with: r.recipient_dentist_id
          ? { dentist_id: r.recipient_dentist_id, dentist_name: r.recipient_dentist_name }
          : "all_verified_dentists",
      })),
    ],
    sessions: lists.sessions.map((s) => ({
      id: s.id,
      device: deviceLabel(s.user_agent),
      user_agent: s.user_agent,
      ip_address: s.ip_address,
      created_at: iso(s.created_at),
      last_active_at: iso(s.updated_at),
      expires_at: iso(s.expires_at),
    })),
    account_events: lists.events.map((e) => ({
      id: e.id,
      action: e.action,
      details: e.details,
      at: iso(e.created_at),
    })),
    files: files.map((f) => f.path),
  };

  await writeAudit(deps.db, {
    actorId: me,
    action: EXPORT_ACTION,
    subjectType: "profile",
    subjectId: me,
    details: { files: files.length },
    at: now,
  });

  return {
    fileName: `sourio-mes-donnees-${parisToday(now)}.zip`,
    data,
    readme: readme(deps.brandName, now, actor.profile.role, isVerifiedDentist(actor.profile)),
    files,
  };
}
