import { type ExpressionBuilder, sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { TreatmentType } from "../../../shared/domain/treatments";
import type { ChatMessage, ConversationSummary } from "../../../shared/schemas/conversations";
import { cursorInstant, decodeCursor, encodeCursor } from "../../../shared/schemas/cursor";
import type { Actor } from "../../access/actor";
import { conversationSide, conversationVisibleTo, readsConversations } from "../../access/objects";
import { requestVisibleTo } from "../../access/requests";
import { isVerifiedDentist } from "../../access/rules";
import { runCompiled } from "../../db/compiled";
import type { Db } from "../../db/index";
import { isoOf } from "../../db/iso";
import { nameContains, pageBefore } from "../../db/paging";
import { storedFileColumns } from "../../db/queries";
import type { Database } from "../../db/types";

/**
 * Conversations between a patient and a dentist about a request (ADR 007). Every query is
 * bound to the actor as one of the two parties (`conversationVisibleTo`): anyone else, and a dentist
 * not verified (D6), gets nothing (→ 404), whatever id they try.
 */

type C = ExpressionBuilder<Database & { c: Database["conversations"] }, "c">;

/** What a message to the other party would meet (ConversationSummary's `other_status`). */
type OtherStatus = ConversationSummary["other_status"];

/** Messages of a conversation that `userId` has not read (written by the other party). */
const unreadFor = (userId: string) => (eb: ExpressionBuilder<Database & { m: Database["messages"] }, "m">) =>
  eb.and([
    eb("m.read_at", "is", null),
    eb.or([eb("m.sender_id", "is", null), eb("m.sender_id", "!=", userId)]),
  ]);

export function attachmentUrl(id: string): string {
  return `/api/conversations/attachments/${id}`;
}

const isImage = (mime: string) => mime.startsWith("image/");

/** Messages by id with their attachments, as the API returns them (oldest first as given). */
export async function loadMessages(db: Db, ids: string[]): Promise<ChatMessage[]> {
  if (ids.length === 0) return [];
  const [rows, attachments] = await Promise.all([
    db
      .selectFrom("messages")
      .select(["id", "conversation_id", "sender_id", "body", "created_at", "read_at"])
      .where("id", "in", ids)
      .execute(),
    db
      .selectFrom("message_attachments")
      .select(["id", "message_id", "file_name", "mime_type", "size"])
      .where("message_id", "in", ids)
      .orderBy("message_id")
      .orderBy("position")
      .execute(),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        conversation_id: row.conversation_id,
        sender_id: row.sender_id,
        body: row.body,
        created_at: new Date(row.created_at).toISOString(),
        read_at: row.read_at ? new Date(row.read_at).toISOString() : null,
        attachments: attachments
          .filter((a) => a.message_id === id)
          .map((a) => ({
            id: a.id,
            file_name: a.file_name,
            mime_type: a.mime_type,
            size: a.size,
            kind: isImage(a.mime_type) ? ("image" as const) : ("document" as const),
            url: attachmentUrl(a.id),
          })),
      },
    ];
  });
}

/**
 * Unread messages across every conversation of this person (both roles' sides), as a query: the
 * sum of the counts the messages' triggers keep on each conversation (migration 038).
 */
const unreadTotalQuery = (db: Db, userId: string) =>
  db
    .selectFrom("conversations as c")
    .select(
      sql<number>`coalesce(sum(case when c.patient_id = ${userId} then c.patient_unread else 0 end
        + case when c.dentist_id = ${userId} then c.dentist_unread else 0 end), 0)::int`.as("n"),
    )
    .where((eb) => eb.or([eb("c.patient_id", "=", userId), eb("c.dentist_id", "=", userId)]));

/** Unread messages across every conversation of this person (both roles' sides). */
export async function unreadTotal(db: Db, userId: string): Promise<number> {
  const row = await unreadTotalQuery(db, userId).executeTakeFirstOrThrow();
  return row.n;
}

/** The two parties of a conversation (for pushing events to them). */
export async function partiesOf(db: Db, conversationId: string) {
  return db
    .selectFrom("conversations")
    .select(["patient_id", "dentist_id"])
    .where("id", "=", conversationId)
    .executeTakeFirst();
}

interface ListOptions {
  search: string;
  cursor?: string | undefined;
  limit: number;
}

/**
 * The queries of one person's conversations (what `conversationsRepo` runs), apart from it so that
 * a compiled list (db/compiled.ts) builds them with a placeholder in place of the person's id.
 */
function conversationQueries(db: Db, actor: Actor) {
  // A person is on one side: patients talk to dentists and dentists to patients.
  const mySide = conversationSide(actor);
  // That side's conversations; none for an unverified dentist (D6).
  const mine = (eb: C) => conversationVisibleTo(eb, actor);
  const otherSide = actor.profile.role === "dentist" ? "c.patient_id" : "c.dentist_id";

  // What the messages' triggers keep on each conversation (migration 038): my unread messages and
  // the newest message, and on each message its attachments (migration 039), so that a row of the
  // list is read, not counted (issue 38).
  const myUnread = mySide === "c.dentist_id" ? "c.dentist_unread" : "c.patient_unread";

  const summaries = () =>
    db
      .selectFrom("conversations as c")
      .innerJoin("requests as r", "r.id", "c.request_id")
      .innerJoin("profiles as o", "o.id", otherSide)
      .leftJoin("messages as last", "last.id", "c.last_message_id")
      .select([
        "c.id",
        "c.request_id",
        "c.last_message_at",
        "r.treatment_type",
        "r.created_at as request_created_at",
        "o.id as other_id",
        "o.full_name as other_name",
        "o.avatar_url as other_avatar_url",
        "last.body as last_body",
        "last.created_at as last_created_at",
        "last.sender_id as last_sender_id",
        // Kept by the attachments' triggers (migration 039): not counted per row.
        "last.attachment_count as last_attachment_count",
        sql<number>`${sql.ref(myUnread)}`.as("unread_count"),
        // Whether a message to the other party would reach them (the rule `lockToWrite` applies).
        sql<OtherStatus>`case when o.erased_at is not null then 'erased'
          when o.suspended_at is not null then 'suspended'
          when o.role = 'dentist' and o.is_verified is not true then 'unverified' else 'active' end`.as(
          "other_status",
        ),
      ])
      // Whether the request's page still opens for me: the rule its detail route applies (ADR 012).
      .select((eb) => sql<boolean>`(${requestVisibleTo(eb, actor)})`.as("request_visible"))
      .where(mine);

  /** Newest activity first, searchable by the other party's name, keyset-paged. */
  function pageQuery(options: ListOptions) {
    let query = summaries();
    if (options.search) {
      query = query.where(nameContains("o.full_name", options.search));
    }
    // Keyset cursor: last activity then id (shared/schemas/cursor.ts; the query schema refused forgeries).
    const after = options.cursor ? decodeCursor(options.cursor) : null;
    if (after) {
      const { id } = after;
      // To the microsecond, as the database keeps it (cursorInstant).
      const at = sql<Date>`${after.at}::timestamptz`;
      query = query.where((eb: C) =>
        eb.or([
          eb("c.last_message_at", "<", at),
          eb.and([eb("c.last_message_at", "=", at), eb("c.id", "<", id)]),
        ]),
      );
    }
    return query
      .orderBy("c.last_message_at", "desc")
      .orderBy("c.id", "desc")
      .limit(options.limit + 1);
  }

  return { mySide, mine, summaries, pageQuery };
}

export function conversationsRepo(db: Db, actor: Actor) {
  const me = actor.userId;
  const { mySide, mine, summaries, pageQuery } = conversationQueries(db, actor);

  /** A summary's row, from the driver (dates as Date) or from a JSON aggregate (dates as text). */
  type Row = {
    [K in keyof SummaryRow]: SummaryRow[K] extends Date
      ? Date | string
      : SummaryRow[K] extends Date | null
        ? Date | string | null
        : SummaryRow[K];
  };
  type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>["execute"]>>[number];
  const toSummary = (row: Row): ConversationSummary => ({
    id: row.id,
    request_id: row.request_id,
    treatment_type: row.treatment_type as TreatmentType,
    request_created_at: isoOf(row.request_created_at),
    other: {
      id: row.other_id,
      full_name: row.other_name || (actor.profile.role === "dentist" ? "Patient" : "Dentiste"),
      avatar_url: row.other_avatar_url,
    },
    last_message: row.last_created_at
      ? {
          body: row.last_body ?? "",
          created_at: isoOf(row.last_created_at),
          from_me: row.last_sender_id === me,
          attachment_count: row.last_attachment_count ?? 0,
        }
      : null,
    last_message_at: isoOf(row.last_message_at),
    unread_count: row.unread_count ?? 0,
    request_visible: row.request_visible === true,
    other_status: row.other_status,
  });

  /** The page of `limit` summaries out of the `limit + 1` rows asked for, and the next page's cursor. */
  function pageOf(rows: readonly Row[], limit: number) {
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map(toSummary),
      nextCursor:
        rows.length > limit && last
          ? encodeCursor({ at: cursorInstant(last.last_message_at), id: last.id })
          : null,
    };
  }

  async function listPage(options: ListOptions, withTotal: boolean) {
    // The page comes back as one JSON array (one field), not as rows of fourteen columns: on PGlite
    // each field of each row is copied and decoded in JavaScript, which cost more than PostgreSQL's
    // building the JSON (ADR 057, addendum of 29/11). Its dates come as text, read by `pageOf`.
    // The unread total beside it, once (an uncorrelated subquery), there for an empty page too (ADR 060).
    const asJson = (query: ReturnType<typeof pageQuery>, who: string) =>
      db
        .selectNoFrom(jsonArrayFrom(query).as("rows"))
        .$if(withTotal && readsConversations(actor), (qb) =>
          qb.select(unreadTotalQuery(db, who).as("unread_total")),
        );
    // The first page without a search is built and compiled once per side and size
    // (db/compiled.ts): only the person's id varies. A search or a cursor shapes the text.
    const [answer] =
      options.search || options.cursor
        ? await asJson(pageQuery(options), me).execute()
        : await runCompiled(
            db,
            // The request's visibility (requestVisibleTo) is shaped by the kind of person too.
            `conversations:${actor.profile.role}:${actor.profile.is_admin === true}:${isVerifiedDentist(actor.profile)}:${actor.limited === true}:${options.limit}:${withTotal}`,
            { me },
            (p) => asJson(conversationQueries(db, { ...actor, userId: p.me }).pageQuery(options), p.me),
          );
    return { page: pageOf(answer?.rows ?? [], options.limit), total: answer?.unread_total ?? undefined };
  }

  return {
    /**
     * The Messages screen: a page and the unread total in one round trip (issue 38), the total an
     * uncorrelated subquery beside the page's JSON array, an empty page included (ADR 060).
     */
    async listWithUnreadTotal(options: ListOptions) {
      const { page, total } = await listPage(options, true);
      return { ...page, unreadTotal: total ?? 0 };
    },

    /** Newest activity first, searchable by the other party's name, keyset-paged. */
    async list(options: ListOptions) {
      return (await listPage(options, false)).page;
    },

    /** A page's query, to be run inside another (the dentist's dashboard, issue 38); see `pageOf`. */
    listQuery: (options: ListOptions) => pageQuery(options),
    pageOf,

    async find(id: string): Promise<ConversationSummary | undefined> {
      const row = await summaries().where("c.id", "=", id).executeTakeFirst();
      return row ? toSummary(row) : undefined;
    },

    /**
     * The actor's conversation locked for a new message (`db` being the message's transaction; the
     * lock the message's own update of the row takes anyway), and what a message to the other party
     * would meet: an erased account (the conversation stays, the pseudonym as that party:
     * security/erasure), a suspended account (ADR 092) or a dentist no longer verified (D6). Read
     * after the lock, so an erasure that committed meanwhile is seen. Undefined when not theirs.
     */
    async lockToWrite(id: string): Promise<{ other: OtherStatus } | undefined> {
      const row = await db
        .selectFrom("conversations as c")
        .select(["c.patient_id", "c.dentist_id"])
        .where("c.id", "=", id)
        .where(mine)
        .forNoKeyUpdate()
        .executeTakeFirst();
      if (!row) return undefined;
      const otherId = mySide === "c.dentist_id" ? row.patient_id : row.dentist_id;
      const other = await db
        .selectFrom("profiles")
        .select(["erased_at", "suspended_at", "role", "is_verified"])
        .where("id", "=", otherId)
        .executeTakeFirst();
      if (!other || other.erased_at !== null) return { other: "erased" };
      if (other.suspended_at !== null) return { other: "suspended" };
      return { other: other.role === "dentist" && other.is_verified !== true ? "unverified" : "active" };
    },

    /** A page of messages, oldest first, ending before `before` (a message of this conversation). */
    async messages(id: string, options: { before?: string | undefined; limit: number }) {
      const { ids, hasMore } = await pageBefore(
        db
          .selectFrom("messages as m")
          .innerJoin("conversations as c", "c.id", "m.conversation_id")
          .select("m.id")
          .where("m.conversation_id", "=", id)
          .where(mine),
        options.before
          ? db
              .selectFrom("messages as p")
              .select(["p.created_at", "p.id"])
              .where("p.id", "=", options.before)
              .where("p.conversation_id", "=", id)
          : undefined,
        options.limit,
      );
      return { items: await loadMessages(db, ids), hasMore };
    },

    /** Marks the other party's messages read; returns how many and when. */
    async markRead(id: string, now: Date) {
      const rows = await db
        .updateTable("messages as m")
        .set({ read_at: now })
        .where("m.conversation_id", "=", id)
        .where(unreadFor(me))
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom("conversations as c")
              .select("c.id")
              .whereRef("c.id", "=", "m.conversation_id")
              .where(mine),
          ),
        )
        .returning("m.id")
        .execute();
      return rows.length;
    },

    /** An attachment of a conversation this person is part of, or undefined (→ 404). */
    async attachment(attachmentId: string) {
      return db
        .selectFrom("message_attachments as a")
        .innerJoin("messages as m", "m.id", "a.message_id")
        .innerJoin("conversations as c", "c.id", "m.conversation_id")
        .select([
          "a.id",
          ...storedFileColumns("a"),
          "m.sender_id",
          "c.id as conversation_id",
          "c.request_id",
          "c.patient_id",
        ])
        .where("a.id", "=", attachmentId)
        .where(mine)
        .executeTakeFirst();
    },
  };
}
