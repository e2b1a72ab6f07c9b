import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { reminderSchedule } from "../shared/policies/appointments";
import { addDays, parisLocalToDate, parisToday } from "../shared/policies/offers";
import { rppsWithKey } from "../shared/policies/verification";
import { resolveLine } from "../shared/schemas/quotes";
import type { Auth } from "./auth";
import { type NewAccount, systemCreateAccount } from "./bootstrap";
import type { Db } from "./db/index";
import { insertQuoteLines } from "./modules/quotes/quotes.repo";
import { tinyPdf, tinyPng } from "./sample-files";
import type { Storage } from "./storage/storage";

export const DEMO_PASSWORD = "sourio-demo";

/**
 * Demo accounts: real accounts in the database, created by seedDemoData on a first start (the
 * product never shows hard-coded sample rows, only data that lives in the database).
 */
export const DEMO_ACCOUNTS: ReadonlyArray<NewAccount & { label: string }> = [
  {
    label: "Administrateur",
    email: "admin@demo.sourio.fr",
    password: DEMO_PASSWORD,
    // An administrator, not a patient (issue 13).
    role: null,
    firstName: "Claire",
    lastName: "Moreau",
    isAdmin: true,
  },
  {
    label: "Patiente",
    email: "patient@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "patient",
    firstName: "Marie",
    lastName: "Dupont",
    city: "Lyon",
    phoneNumber: "06 12 34 56 78",
  },
  {
    label: "Dentiste vérifié",
    email: "dr.martin@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "dentist",
    firstName: "Julien",
    lastName: "Martin",
    city: "Paris",
    phoneNumber: "01 42 00 00 01",
    isVerified: true,
    specialties: ["Implantologie", "Prothèses"],
    bio: "Chirurgien-dentiste à Paris depuis 2009, spécialisé en implantologie et prothèses.",
  },
  {
    label: "Dentiste vérifiée",
    email: "dr.leroy@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "dentist",
    firstName: "Sophie",
    lastName: "Leroy",
    city: "Bordeaux",
    phoneNumber: "05 56 00 00 02",
    isVerified: true,
    specialties: ["Orthodontie", "Esthétique", "Facettes"],
    bio: "Cabinet d'orthodontie et d'esthétique dentaire au centre de Bordeaux.",
  },
  {
    label: "Dentiste non vérifié",
    email: "dr.bernard@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "dentist",
    firstName: "Thomas",
    lastName: "Bernard",
    city: "Marseille",
    phoneNumber: "04 91 00 00 03",
  },
];

/** A line of a devis or an offer: with a CCAM code, basket, BR and ceiling come from the act table. */
interface DemoLine {
  code?: string;
  act: string;
  tooth: number | null;
  euros: number;
}

const resolved = (lines: DemoLine[], day: string) =>
  lines.map((line) =>
    resolveLine(
      {
        code: line.code ?? null,
        act: line.act,
        tooth: line.tooth,
        fee_cents: line.euros * 100,
        br_cents: null,
      },
      day,
    ),
  );

interface DemoRequest {
  treatment_type: string;
  status: "new" | "in_review" | "accepted" | "completed" | "cancelled";
  urgency: "high" | "medium" | "low";
  daysAgo: number;
  description: string;
  budget?: string;
  quoteEuros?: number;
  /** The devis line by line (issue 15); the quote's amount is then their total. */
  quoteLines?: DemoLine[];
  toDentist?: string;
  /** Dentists who already opened the first document (the patient sees it in the access record). */
  openedBy?: Array<{ email: string; action: "view" | "download"; daysAgo: number }>;
  /** Dentists' replies: their status on the request and the first message of the conversation. */
  replies?: Array<{
    email: string;
    status: "responded" | "confirmed";
    daysAgo: number;
    message: string;
    /** A formal offer with the reply (ADR 008): slots are [days from today, Paris time]. */
    offer?: {
      status: "sent" | "accepted";
      lines: DemoLine[];
      comment: string;
      validDays: number;
      slots: Array<[number, string]>;
      /** A confirmed appointment on the accepted offer: [days from today, Paris time]. */
      appointment?: [number, string];
    };
  }>;
  documents: Array<{ name: string; type: "xray" | "quote" | "photo" | "other"; kind: "pdf" | "png" }>;
}

/** The demo patient's requests: one or more in each status, with small real documents. */
const DEMO_REQUESTS: DemoRequest[] = [
  {
    treatment_type: "implant",
    status: "in_review",
    urgency: "high",
    daysAgo: 3,
    description: "Remplacement d'une molaire inférieure extraite il y a six mois.",
    budget: "1 500 €",
    quoteEuros: 2400,
    openedBy: [
      { email: "dr.leroy@demo.sourio.fr", action: "view", daysAgo: 2 },
      { email: "dr.martin@demo.sourio.fr", action: "download", daysAgo: 1 },
    ],
    replies: [
      {
        email: "dr.martin@demo.sourio.fr",
        status: "responded",
        daysAgo: 1,
        message:
          "Bonjour Madame Dupont, j'ai étudié votre radio panoramique : un implant avec couronne céramique est adapté. Je peux vous proposer l'ensemble pour 1 850 €. Souhaitez-vous en parler ?",
        offer: {
          status: "sent",
          lines: [
            { code: "LBLD015", act: "Implant en titane", tooth: 36, euros: 1200 },
            { code: "HBLD418", act: "Couronne céramique sur implant", tooth: 36, euros: 650 },
          ],
          comment: "Pose de l'implant puis couronne après trois mois de cicatrisation. Garantie 5 ans.",
          validDays: 30,
          slots: [
            [6, "09:30"],
            [8, "14:00"],
          ],
        },
      },
      {
        email: "dr.leroy@demo.sourio.fr",
        status: "responded",
        daysAgo: 1,
        message:
          "Bonjour, je vous propose l'implant et sa couronne zircone. Je peux vous recevoir rapidement pour un premier bilan.",
        offer: {
          status: "sent",
          lines: [
            { code: "LBLD015", act: "Implant en titane", tooth: 36, euros: 1150 },
            { code: "HBLD418", act: "Pilier et couronne zircone sur implant", tooth: 36, euros: 890 },
          ],
          comment: "Bilan et scanner 3D compris.",
          validDays: 21,
          slots: [[4, "11:00"]],
        },
      },
    ],
    documents: [
      { name: "devis-implant-dr-roux.pdf", type: "quote", kind: "pdf" },
      { name: "radio-panoramique.png", type: "xray", kind: "png" },
    ],
  },
  {
    treatment_type: "crown",
    status: "in_review",
    urgency: "medium",
    daysAgo: 2,
    description: "Couronne céramique sur la 16, dent dévitalisée.",
    quoteLines: [
      { code: "HBLD734", act: "Couronne céramo-métallique (molaire)", tooth: 16, euros: 750 },
      { code: "HBLD090", act: "Inlay-core", tooth: 16, euros: 200 },
    ],
    replies: [
      {
        email: "dr.martin@demo.sourio.fr",
        status: "responded",
        daysAgo: 1,
        message:
          "Bonjour, pour la 16 je vous propose la couronne métallique du panier 100 % Santé, sans reste à charge avec un contrat responsable.",
        offer: {
          status: "sent",
          lines: [
            { code: "HBLD038", act: "Couronne métallique", tooth: 16, euros: 299 },
            { code: "HBLD090", act: "Inlay-core", tooth: 16, euros: 180 },
          ],
          comment: "Alternative 100 % Santé à votre devis. Deux rendez-vous à trois semaines d'écart.",
          validDays: 30,
          slots: [[5, "10:00"]],
        },
      },
      {
        email: "dr.leroy@demo.sourio.fr",
        status: "responded",
        daysAgo: 1,
        message: "Bonjour, je vous propose une couronne zircone, plus esthétique, au tarif maîtrisé.",
        offer: {
          status: "sent",
          lines: [
            { code: "HBLD073", act: "Couronne zircone monolithique", tooth: 16, euros: 450 },
            { code: "HBLD090", act: "Inlay-core", tooth: 16, euros: 180 },
          ],
          comment: "Empreinte numérique, pas de pâte.",
          validDays: 21,
          slots: [[7, "15:30"]],
        },
      },
    ],
    documents: [{ name: "devis-couronne.pdf", type: "quote", kind: "pdf" }],
  },
  {
    treatment_type: "bridge",
    status: "new",
    urgency: "low",
    daysAgo: 6,
    description: "Bridge trois éléments, je souhaite l'avis du Dr Martin.",
    toDentist: "dr.martin@demo.sourio.fr",
    openedBy: [{ email: "dr.martin@demo.sourio.fr", action: "view", daysAgo: 5 }],
    documents: [
      { name: "devis-bridge.pdf", type: "quote", kind: "pdf" },
      { name: "photo-sourire.png", type: "photo", kind: "png" },
    ],
  },
  {
    treatment_type: "whitening",
    status: "accepted",
    urgency: "low",
    daysAgo: 40,
    description: "Blanchiment en cabinet.",
    budget: "400 €",
    quoteEuros: 600,
    replies: [
      {
        email: "dr.leroy@demo.sourio.fr",
        status: "confirmed",
        daysAgo: 38,
        message: "Bonjour, je réalise ce blanchiment en cabinet en une séance, pour 420 €.",
        offer: {
          status: "accepted",
          lines: [{ act: "Blanchiment en cabinet (une séance)", tooth: null, euros: 420 }],
          comment: "",
          validDays: -10,
          slots: [],
          appointment: [12, "10:30"],
        },
      },
    ],
    documents: [{ name: "devis-blanchiment.pdf", type: "quote", kind: "pdf" }],
  },
  {
    treatment_type: "veneer",
    status: "cancelled",
    urgency: "medium",
    daysAgo: 25,
    description: "Facettes sur les incisives, projet reporté.",
    documents: [{ name: "photo-incisives.png", type: "photo", kind: "png" }],
  },
];

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

/** What the demo seed found or did at start-up, and the demo accounts that exist after it. */
export interface DemoSeed {
  /**
   * created: seeded now; present: demo accounts were already there; skipped: the database is in
   * use (it holds requests) and has no demo account, so none is added.
   */
  outcome: "created" | "present" | "skipped";
  accounts: DemoAccount[];
}

/**
 * Seeds the demo accounts and data (real rows, as above) when there is no demo account yet and no request
 * yet. Other accounts do not count: ADMIN_EMAIL's administrator, created just before on a first
 * start, must not keep the demo out.
 */
export async function seedDemoData(deps: { db: Db; auth: Auth; storage: Storage }): Promise<DemoSeed> {
  const present = await existingDemoAccounts(deps.db);
  if (present.length > 0) return { outcome: "present", accounts: present };
  const request = await deps.db.selectFrom("requests").select("id").limit(1).executeTakeFirst();
  if (request) return { outcome: "skipped", accounts: [] };
  const ids = new Map<string, string>();
  for (const account of DEMO_ACCOUNTS) ids.set(account.email, await systemCreateAccount(deps, account));
  // The unverified demo dentist has filled in the profile and asked to be verified (RPPS and practice given): the
  // admins' queue is not empty on a fresh start.
  await deps.db
    .updateTable("profiles")
    .set({
      rpps: rppsWithKey("1000123456"),
      practice_address: "12 rue de la République",
      practice_postcode: "13001",
      verification_requested_at: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000),
    })
    .where("email", "=", "dr.bernard@demo.sourio.fr")
    .execute();
  // The verified ones have their registration on file.
  for (const [email, ten, address, postcode] of [
    ["dr.martin@demo.sourio.fr", "1000234567", "8 boulevard Haussmann", "75009"],
    ["dr.leroy@demo.sourio.fr", "1000345678", "25 cours de l'Intendance", "33000"],
  ] as const) {
    await deps.db
      .updateTable("profiles")
      .set({ rpps: rppsWithKey(ten), practice_address: address, practice_postcode: postcode })
      .where("email", "=", email)
      .execute();
  }
  const patientId = ids.get("patient@demo.sourio.fr") ?? "";
  // Dentists see the demo patient's age on the proposal page; her postal code (Lyon) gives the
  // distances to the dentists (Paris, Bordeaux, Marseille), ADR 019.
  await deps.db
    .updateTable("profiles")
    .set({ birth_date: "1988-04-12", postal_code: "69003" })
    .where("id", "=", patientId)
    .execute();
  // 'Ma mutuelle': 200 % of the BR, Assurance Maladie included, a contrat responsable.
  await deps.db
    .insertInto("patient_covers")
    .values({
      patient_id: patientId,
      percent_of_br: 200,
      ro_included: true,
      annual_ceiling_cents: 150_000,
      implant_allowance_cents: 50_000,
      responsible: true,
      updated_at: new Date(),
    })
    .execute();
  const day = 24 * 60 * 60 * 1000;
  for (const demo of DEMO_REQUESTS) {
    const createdAt = new Date(Date.now() - demo.daysAgo * day);
    const request = await deps.db
      .insertInto("requests")
      .values({
        patient_id: patientId,
        treatment_type: demo.treatment_type,
        status: demo.status,
        urgency: demo.urgency,
        description: demo.description,
        budget: demo.budget ?? "",
        quote_amount_cents: demo.quoteLines
          ? demo.quoteLines.reduce((sum, line) => sum + line.euros * 100, 0)
          : demo.quoteEuros
            ? demo.quoteEuros * 100
            : null,
        recipient_dentist_id: demo.toDentist ? (ids.get(demo.toDentist) ?? null) : null,
        cancelled_at: demo.status === "cancelled" ? createdAt : null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (demo.quoteLines)
      await insertQuoteLines(deps.db, request.id, resolved(demo.quoteLines, parisToday(createdAt)));
    const documentIds: string[] = [];
    for (const [position, doc] of demo.documents.entries()) {
      const content = doc.kind === "pdf" ? tinyPdf(`Sourio - ${doc.name}`) : tinyPng(64, 48, [203, 213, 225]);
      const key = `${patientId}/${randomUUID()}.${doc.kind}`;
      const size = await deps.storage.write(key, Readable.from([content]));
      await deps.db
        .insertInto("documents")
        .values({
          request_id: request.id,
          owner_id: patientId,
          storage_key: key,
          file_name: doc.name,
          size,
          mime_type: doc.kind === "pdf" ? "application/pdf" : "image/png",
          document_type: doc.type,
          position,
          created_at: createdAt,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
        .then((row) => documentIds.push(row.id));
    }
    for (const reply of demo.replies ?? []) {
      const dentistId = ids.get(reply.email) ?? "";
      const at = new Date(Date.now() - reply.daysAgo * day);
      await deps.db
        .insertInto("request_dentists")
        .values({
          request_id: request.id,
          dentist_id: dentistId,
          status: reply.status,
          opened_at: at,
          assigned_at: at,
          replied_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
      const conversation = await deps.db
        .insertInto("conversations")
        .values({
          request_id: request.id,
          patient_id: patientId,
          dentist_id: dentistId,
          last_message_at: at,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await deps.db
        .insertInto("messages")
        .values({
          conversation_id: conversation.id,
          sender_id: dentistId,
          body: reply.message,
          created_at: at,
        })
        .execute();
      if (reply.offer)
        await seedOffer(deps.db, { requestId: request.id, patientId, dentistId, at }, reply.offer);
    }
    for (const access of demo.openedBy ?? []) {
      const account = DEMO_ACCOUNTS.find((a) => a.email === access.email);
      await deps.db
        .insertInto("document_access")
        .values({
          document_id: documentIds[0] ?? "",
          request_id: request.id,
          actor_id: ids.get(access.email) ?? null,
          actor_name: `${account?.firstName} ${account?.lastName}`,
          actor_kind: "dentist",
          action: access.action,
          created_at: new Date(Date.now() - access.daysAgo * day),
        })
        .execute();
    }
  }
  return { outcome: "created", accounts: [...DEMO_ACCOUNTS] };
}

/** The demo accounts found in the database, in DEMO_ACCOUNTS order. */
async function existingDemoAccounts(db: Db): Promise<DemoAccount[]> {
  const rows = await db
    .selectFrom("users")
    .select("email")
    .where(
      "email",
      "in",
      DEMO_ACCOUNTS.map((a) => a.email),
    )
    .execute();
  const emails = new Set(rows.map((r) => r.email));
  return DEMO_ACCOUNTS.filter((a) => emails.has(a.email));
}

/** The console's lines about the demo after start-up: the logins only of accounts that exist. */
export function demoStartupText(seed: DemoSeed, publicUrl: string): string {
  if (seed.outcome === "skipped" || seed.accounts.length === 0)
    return "Données de démonstration non ajoutées : la base contient déjà des demandes.";
  const width = Math.max(...seed.accounts.map((a) => a.label.length));
  return [
    seed.outcome === "created"
      ? "Données de démonstration créées."
      : "Données de démonstration déjà présentes.",
    `Comptes de démonstration (mot de passe commun : ${DEMO_PASSWORD}) :`,
    ...seed.accounts.map((a) => `  ${a.label.padEnd(width)}  ${a.email}`),
    `Connexion : ${publicUrl}/login (patients), ${publicUrl}/dentist/login, ${publicUrl}/admin/login`,
  ].join("\n");
}

/** A demo offer with its lines and slots, dated like the reply it comes with. */
async function seedOffer(
  db: Db,
  {
    requestId,
    patientId,
    dentistId,
    at,
  }: { requestId: string; patientId: string; dentistId: string; at: Date },
  offer: NonNullable<NonNullable<DemoRequest["replies"]>[number]["offer"]>,
) {
  const today = parisToday(new Date());
  const row = await db
    .insertInto("offers")
    .values({
      request_id: requestId,
      dentist_id: dentistId,
      amount_cents: offer.lines.reduce((sum, line) => sum + line.euros * 100, 0),
      comment: offer.comment,
      valid_until: addDays(today, offer.validDays),
      status: offer.status,
      decided_at: offer.status === "accepted" ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("offer_lines")
    .values(resolved(offer.lines, today).map((line, position) => ({ offer_id: row.id, position, ...line })))
    .execute();
  if (offer.slots.length > 0)
    await db
      .insertInto("offer_slots")
      .values(
        offer.slots.map(([days, time]) => ({
          offer_id: row.id,
          starts_at: parisLocalToDate(`${addDays(today, days)}T${time}`),
        })),
      )
      .execute();
  if (offer.appointment) {
    const [days, time] = offer.appointment;
    const startsAt = parisLocalToDate(`${addDays(today, days)}T${time}`);
    const appointment = await db
      .insertInto("appointments")
      .values({
        request_id: requestId,
        offer_id: row.id,
        patient_id: patientId,
        dentist_id: dentistId,
        status: "confirmed",
        starts_at: startsAt,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const reminders = reminderSchedule(startsAt, new Date());
    if (reminders.length > 0)
      await db
        .insertInto("appointment_reminders")
        .values(reminders.map((r) => ({ appointment_id: appointment.id, kind: r.kind, due_at: r.due_at })))
        .execute();
  }
}
