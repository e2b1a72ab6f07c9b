import { sql } from "kysely";
import {
  SUPPORT_ACCESS_PAGE_SIZE,
  type SupportAccess,
  type SupportMessage,
  type SupportThread,
  type SupportThreadsQuery,
  supportRequestLabel,
} from "../../../shared/schemas/support";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";
import { fetchItems, fetchPage, nameOrEmailContains, pageBefore } from "../../db/paging";

/** The support chat's reads. Who may call them is decided by the routes' area guards and the
 * service (a patient or a dentist: only their own thread; the team: every thread). */

export const supportImageUrl = (id: string) => `/api/support/messages/${id}/image`;

export async function loadSupportMessages(db: Db, ids: string[]): Promise<SupportMessage[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("support_messages as m")
    .leftJoin("profiles as a", "a.id", "m.sender_id")
    .leftJoin("requests as r", "r.id", "m.request_id")
    .select([
      "m.id",
      "m.patient_id",
      "m.from_team",
      "m.body",
      "m.image_key",
      "m.image_name",
      "m.read_at",
      "m.created_at",
      "a.full_name as author_name",
      "r.id as request_id",
      "r.treatment_type",
      "r.created_at as request_created_at",
    ])
    .where("m.id", "in", ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        patient_id: row.patient_id,
        from_team: row.from_team,
        author_name: row.from_team ? row.author_name || "L'équipe" : null,
        body: row.body,
        image: row.image_key ? { url: supportImageUrl(row.id), name: row.image_name ?? "image" } : null,
        request:
          row.request_id && row.treatment_type && row.request_created_at
            ? { id: row.request_id, label: supportRequestLabel(row.treatment_type, row.request_created_at) }
            : null,
        read_at: row.read_at ? new Date(row.read_at).toISOString() : null,
        created_at: new Date(row.created_at).toISOString(),
      },
    ];
  });
}

/** One person's thread (patient or dentist), newest page last (oldest first), before a message of that thread. */
export async function supportPage(
  db: Db,
  patientId: string,
  options: { before?: string | undefined; limit: number },
) {
  const { ids, hasMore } = await pageBefore(
    db.selectFrom("support_messages as m").select("m.id").where("m.patient_id", "=", patientId),
    options.before
      ? db
          .selectFrom("support_messages as p")
          .select(["p.created_at", "p.id"])
          .where("p.id", "=", options.before)
          .where("p.patient_id", "=", patientId)
      : undefined,
    options.limit,
  );
  return { items: await loadSupportMessages(db, ids), hasMore };
}

/** The team's answers a person has not read yet (served by the partial unread index). */
export async function supportUnread(db: Db, patientId: string): Promise<number> {
  const row = await db
    .selectFrom("support_messages")
    .select((eb) => eb.fn.countAll<number>().as("unread"))
    .where("patient_id", "=", patientId)
    .where("from_team", "=", true)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.unread);
}

/**
 * When the team opened a person's thread or its images (« Qui a lu ce fil »), a page of them,
 * newest first; only that person's own rows.
 */
export async function supportAccessPage(db: Db, patientId: string, page: number): Promise<SupportAccess> {
  const { rows, hasMore } = await fetchPage(
    db
      .selectFrom("document_access")
      .select(["id", "actor_name", "action", "object_name", "created_at"])
      .where("support_patient_id", "=", patientId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc"),
    { page, pageSize: SUPPORT_ACCESS_PAGE_SIZE },
  );
  return {
    page,
    page_size: SUPPORT_ACCESS_PAGE_SIZE,
    has_more: hasMore,
    items: rows.map((row) => ({
      id: row.id,
      actor_name: row.actor_name,
      action: row.action as "support_thread_view" | "support_image_view",
      object_name: row.object_name,
      created_at: new Date(row.created_at).toISOString(),
    })),
  };
}

/**
 * A support message's image as the actor may see it: the thread's own person, or the team for
 * every thread; none otherwise (the same answer as a missing image).
 */
export function supportImageOf(db: Db, actor: Actor, id: string) {
  let query = db
    .selectFrom("support_messages")
    .select(["id", "patient_id", "image_key", "image_name", "image_type"])
    .where("id", "=", id)
    .where("image_key", "is not", null);
  if (!actor.profile.is_admin) query = query.where("patient_id", "=", actor.userId);
  return query.executeTakeFirst();
}

/**
 * The team's inbox: one thread per person (patients and dentists), latest message first, searchable
 * by name or e-mail, filtered by role and to the threads with unread messages.
 */
export async function supportThreads(
  db: Db,
  options: {
    search: string;
    page: number;
    pageSize: number;
    role?: SupportThreadsQuery["role"];
    unreadOnly?: boolean;
  },
) {
  let query = db
    .selectFrom("support_threads as t")
    .innerJoin("profiles as p", "p.id", "t.patient_id")
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("support_messages as m")
          .select(["m.body", "m.image_key"])
          .whereRef("m.patient_id", "=", "t.patient_id")
          .orderBy("m.created_at", "desc")
          .limit(1)
          .as("last"),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      "t.patient_id",
      "t.role",
      "t.last_message_at",
      "p.full_name",
      "p.email",
      "last.body",
      "last.image_key",
      eb
        .selectFrom("support_messages as u")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("u.patient_id", "=", "t.patient_id")
        .where("u.from_team", "=", false)
        .where("u.read_at", "is", null)
        .as("unread"),
    ]);
  if (options.role && options.role !== "all") query = query.where("t.role", "=", options.role);
  if (options.unreadOnly)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("support_messages as n")
          .select(sql.lit(1).as("one"))
          .whereRef("n.patient_id", "=", "t.patient_id")
          .where("n.from_team", "=", false)
          .where("n.read_at", "is", null),
      ),
    );
  if (options.search) query = query.where(nameOrEmailContains("p.full_name", "p.email", options.search));
  return fetchItems(
    query.orderBy("t.last_message_at", "desc").orderBy("t.patient_id", "desc"),
    options,
    (row): SupportThread => ({
      patient_id: row.patient_id,
      role: row.role,
      patient_name: row.full_name || row.email,
      patient_email: row.email,
      last_message: row.body || (row.image_key ? "📷 Image" : ""),
      last_message_at: new Date(row.last_message_at).toISOString(),
      unread: row.unread ?? 0,
    }),
  );
}
