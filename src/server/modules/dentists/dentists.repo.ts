import { type Expression, type SqlBool, sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { DentistStatus } from "../../../shared/domain/dentist";
import { TREATMENT_LABELS, TREATMENT_TYPES, type TreatmentType } from "../../../shared/domain/treatments";
import { keysMatchingLabel } from "../../../shared/format/search";
import type { Actor } from "../../access/actor";
import { recordAccess } from "../../access/audit";
import type { RequestsEb } from "../../access/requests";
import { requestIsOpen, requestVisibleToDentist } from "../../access/requests";
import { isVerifiedDentist, OPEN_REQUEST_STATUSES } from "../../access/rules";
import { runCompiled } from "../../db/compiled";
import type { Db } from "../../db/index";
import { nameContains } from "../../db/paging";

/** The pages of a list (without a search) kept compiled (db/compiled.ts); further pages are built each time. */
const COMPILED_PAGES = 3;

/** A page of `pageSize` rows out of the `pageSize + 1` asked for, and whether more follow. */
export function pageOf<R extends object>(rows: readonly R[], pageSize: number) {
  return { items: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

export interface ListOptions {
  search: string;
  /** « Écartées » (set_aside): his requests set aside and not answered (ADR 091). */
  status: "all" | DentistStatus | "set_aside";
  treatment?: TreatmentType | undefined;
  /**
   * Only the requests of patients whose postal code is one of these (the codes within his chosen
   * distance, ADR 094); undefined: every request.
   */
  near?: readonly string[] | undefined;
  page: number;
  pageSize: number;
}

/**
 * The patient's postal code is one of `codes` (ADR 094): a lookup of her row by key for each request
 * the list reads, in list order, until the page is full.
 */
function patientNear(eb: RequestsEb, codes: readonly string[]) {
  return eb.exists(
    eb
      .selectFrom("profiles as near")
      .select(sql.lit(1).as("one"))
      .whereRef("near.id", "=", "r.patient_id")
      .where(sql<SqlBool>`near.postal_code = any(${[...codes]}::text[])`),
  );
}

interface SearchTerms {
  /** The term as typed, matched against the patient's name by `nameContains`. */
  name: string;
  /** The treatment types whose French label contains the term. */
  treatments: TreatmentType[];
}

function searchTerms(search: string): SearchTerms {
  return {
    name: search,
    treatments: keysMatchingLabel(search, TREATMENT_LABELS),
  };
}

/**
 * The queries of one dentist's requests (what `dentistRequestsRepo` runs), apart from it so that a
 * compiled list (db/compiled.ts) builds them with a placeholder in place of his id.
 */
function dentistQueries(db: Db, actor: Actor) {
  const me = actor.userId;
  const verified = isVerifiedDentist(actor.profile);

  /** One request with this dentist's row (detail, assignment). */
  const visible = () =>
    db
      .selectFrom("requests as r")
      .innerJoin("profiles as p", "p.id", "r.patient_id")
      .leftJoin("request_dentists as rd", (join) =>
        join.onRef("rd.request_id", "=", "r.id").on("rd.dentist_id", "=", me),
      )
      .where((eb) => requestVisibleToDentist(eb, me, actor.limited));

  const summaryColumns = [
    "r.id",
    "p.full_name as patient_name",
    "r.treatment_type",
    "r.created_at",
    "r.budget",
    "r.urgency",
    sql<DentistStatus>`coalesce(rd.status, 'pending')`.as("my_status"),
    sql<boolean>`(rd.opened_at is null)`.as("is_new"),
    // Set aside by him and not answered since (« Écartée », ADR 091).
    sql<boolean>`(rd.set_aside_at is not null and rd.status = 'pending')`.as("set_aside"),
    // Sent to him by name (a request he sees has no other recipient than him, or none).
    sql<boolean>`(r.recipient_dentist_id is not null)`.as("addressed_to_me"),
    "r.quote_amount_cents",
    // Only to derive the patient's commune and distance (ADR 019): never sent to the dentist.
    "p.postal_code as patient_postal_code",
    // This dentist's live appointment on the request (appointments_request_idx), so that 'Confirmé'
    // is said only of a confirmed appointment; looked for only on a request that has a live one
    // (its `appointment_status`, kept by the database: migration 039).
    sql<
      "pending" | "confirmed" | null
    >`(case when r.appointment_status is null then null else (select a.status from appointments a where a.request_id = r.id and a.dentist_id = ${me} and a.status in ('pending', 'confirmed') order by a.created_at desc limit 1) end)`.as(
      "appointment_status",
    ),
    // Its time (the request's live appointment is the chosen dentist's): the screens say « Terminée »
    // once it has passed, by their own clock (the answer itself does not change with the hour, so
    // the response cache keeps it).
    "r.appointment_starts_at",
  ] as const;

  /** The request_tallies audiences this dentist sees: sent to all, sent to them (none once lapsed). */
  const audiences = actor.limited ? [] : ["all", me];

  /**
   * Open requests sent to all, open requests sent to this dentist, and the requests whose accepted
   * offer is his. The first two are each one partial index in list order (migration 013: the open
   * statuses as literals let the planner match them); the third too, on the chosen dentist kept on
   * each request (migration 043; it read all of his accepted offers before, and sorted). A page is a merge of three scans of at most offset + limit rows each,
   * whatever the number of requests; the branches never overlap (an accepted offer closes a request).
   * A dentist whose subscription lapsed has the third branch only (issue 35). `withChosen` false
   * leaves the third branch out when another remains: for a filter that excludes every request with
   * an accepted offer (the pending list's), where it could only read his accepted offers, one lookup
   * each, to keep none of them.
   */
  const audienceBranches = (
    extra: (eb: RequestsEb) => Expression<SqlBool>,
    limit: number,
    withChosen = true,
  ) =>
    [
      ...(actor.limited
        ? []
        : [
            (eb: RequestsEb) => eb.and([eb("r.recipient_dentist_id", "is", null), requestIsOpen(eb)]),
            (eb: RequestsEb) => eb.and([eb("r.recipient_dentist_id", "=", me), requestIsOpen(eb)]),
          ]),
      ...(withChosen || actor.limited
        ? [
            (eb: RequestsEb) =>
              // His accepted offer's request (`chosen_dentist_id`, kept by the database from `offers`:
              // migration 043), in list order from requests_chosen_created_idx.
              eb.and([eb("r.chosen_dentist_id", "=", me), eb.not(requestIsOpen(eb))]),
          ]
        : []),
    ].map((audience) =>
      db
        .selectFrom(
          db
            .selectFrom("requests as r")
            .select([
              "r.id",
              "r.patient_id",
              "r.treatment_type",
              "r.created_at",
              "r.budget",
              "r.urgency",
              "r.quote_amount_cents",
              "r.appointment_status",
              "r.appointment_starts_at",
              "r.recipient_dentist_id",
            ])
            .where((eb) => eb.and([audience(eb), extra(eb)]))
            .orderBy("r.created_at", "desc")
            .orderBy("r.id", "desc")
            .limit(limit)
            .as("b"),
        )
        .selectAll("b"),
    );

  /**
   * The treatment types present among the requests his list shows (for its filter): the open ones he
   * sees, from their tallies, and those whose accepted offer is his (few per dentist, from
   * requests_chosen_created_idx; the list's third branch, the only one left to a lapsed dentist). A
   * column of the page's rows: one round trip for the list screen (issue 38). Uncorrelated: run once.
   */
  const treatmentsColumn = sql<TreatmentType[] | null>`array(
    select t.treatment_type from request_tallies t
    where t.audience in (${sql.join(audiences.length ? audiences : [""])}) and t.requests > 0
    union
    select c.treatment_type from requests c
    where c.chosen_dentist_id = ${me} and c.status not in (${sql.join(OPEN_REQUEST_STATUSES.map((status) => sql.lit(status)))})
  )`.as("treatments_present");

  /** 'Toutes' and 'En attente': the visible requests, newest first. */
  function visiblePage(
    pendingOnly: boolean,
    treatment: TreatmentType | undefined,
    near: readonly string[] | undefined,
    search: SearchTerms | undefined,
    offset: number,
    limit: number,
  ) {
    const filters = (eb: RequestsEb) =>
      eb.and([
        ...(treatment ? [eb("r.treatment_type", "=", treatment)] : []),
        ...(near ? [patientNear(eb, near)] : []),
        // Pending for me: no row of mine, or a row still pending and not set aside (ADR 091).
        ...(pendingOnly
          ? [
              eb.not(
                eb.exists(
                  eb
                    .selectFrom("request_dentists as x")
                    .select(sql.lit(1).as("one"))
                    .whereRef("x.request_id", "=", "r.id")
                    .where("x.dentist_id", "=", me)
                    .where((x) =>
                      x.or([x("x.status", "<>", "pending"), x("x.set_aside_at", "is not", null)]),
                    ),
                ),
              ),
              // Settled (an accepted offer, whoever's): nothing left to answer, whatever the stored status.
              eb.not(
                eb.exists(
                  eb
                    .selectFrom("offers as settled")
                    .select(sql.lit(1).as("one"))
                    .whereRef("settled.request_id", "=", "r.id")
                    .where("settled.status", "=", "accepted"),
                ),
              ),
            ]
          : []),
      ]);
    // A search matches the patient's name or a treatment type whose label matches: one branch per
    // way of matching, so each can use its own index (trigram on names, treatment type).
    const matchers: ((eb: RequestsEb) => Expression<SqlBool>)[] = search
      ? [
          (eb) =>
            eb(
              "r.patient_id",
              "in",
              eb.selectFrom("profiles as m").select("m.id").where(nameContains("m.full_name", search.name)),
            ),
          ...(search.treatments.length
            ? [(eb: RequestsEb) => eb("r.treatment_type", "in", search.treatments)]
            : []),
        ]
      : [() => sql<SqlBool>`true`];
    // Pending for me excludes every request with an accepted offer, so every request of the third
    // branch (his accepted offers): that branch is left out (issue 38: at 100 000 requests it read
    // his 16 accepted offers and their requests for each page of the dashboard's « À faire »).
    const branches = matchers.flatMap((match) =>
      audienceBranches((eb) => eb.and([filters(eb), match(eb)]), offset + limit, !pendingOnly),
    );
    const [first, ...rest] = branches;
    if (!first) return null;
    // Name and treatment matches may overlap: union removes the duplicates.
    const combined = rest.reduce(
      (all, branch) => (matchers.length > 1 ? all.union(branch) : all.unionAll(branch)),
      first,
    );
    // The page first (ids and dates only), then its patients and this dentist's rows: one lookup by
    // key per row of the page (`limit 1` keeps each a lookup: the plan of a prepared statement
    // otherwise joined the whole profiles table, or this dentist's every row, to the page's few rows).
    const page = db
      .selectFrom(combined.as("v"))
      .selectAll("v")
      .orderBy("v.created_at", "desc")
      .orderBy("v.id", "desc")
      .limit(limit)
      .offset(offset);
    return db
      .selectFrom(page.as("r"))
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom("profiles as p")
            .select(["p.full_name", "p.postal_code"])
            .whereRef("p.id", "=", "r.patient_id")
            .limit(1)
            .as("p"),
        (join) => join.onTrue(),
      )
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom("request_dentists as rd")
            .select(["rd.status", "rd.opened_at", "rd.set_aside_at"])
            .whereRef("rd.request_id", "=", "r.id")
            .where("rd.dentist_id", "=", me)
            .limit(1)
            .as("rd"),
        (join) => join.onTrue(),
      )
      .select(summaryColumns)
      .orderBy("r.created_at", "desc")
      .orderBy("r.id", "desc");
  }

  /**
   * 'Répondu', 'Confirmé' and « Écartées »: few per dentist, so driven by this dentist's rows (those
   * set aside from their partial index, migration 055).
   */
  function ownRowsPage(
    status: "responded" | "confirmed" | "set_aside",
    treatment: TreatmentType | undefined,
    near: readonly string[] | undefined,
    search: SearchTerms | undefined,
    offset: number,
    limit: number,
  ) {
    let query = db
      .selectFrom("request_dentists as rd")
      .innerJoin("requests as r", "r.id", "rd.request_id")
      .innerJoin("profiles as p", "p.id", "r.patient_id")
      .where("rd.dentist_id", "=", me)
      .where((eb) =>
        status === "set_aside"
          ? eb.and([eb("rd.set_aside_at", "is not", null), eb("rd.status", "=", "pending")])
          : eb("rd.status", "=", status),
      )
      .where((eb) => requestVisibleToDentist(eb, me, actor.limited));
    if (treatment) query = query.where("r.treatment_type", "=", treatment);
    if (near) query = query.where((eb) => patientNear(eb, near));
    if (search) {
      query = query.where((eb) =>
        eb.or([
          nameContains("p.full_name", search.name),
          ...(search.treatments.length ? [eb("r.treatment_type", "in", search.treatments)] : []),
        ]),
      );
    }
    return query
      .select(summaryColumns)
      .orderBy("r.created_at", "desc")
      .orderBy("r.id", "desc")
      .limit(limit)
      .offset(offset);
  }

  /** A page's query (one row more than the page, to tell whether more follow); null: nothing to show. */
  function pageQuery(options: ListOptions) {
    if (!verified) return null;
    const offset = (options.page - 1) * options.pageSize;
    const search = options.search ? searchTerms(options.search) : undefined;
    return options.status === "responded" || options.status === "confirmed" || options.status === "set_aside"
      ? ownRowsPage(options.status, options.treatment, options.near, search, offset, options.pageSize + 1)
      : visiblePage(
          options.status === "pending",
          options.treatment,
          options.near,
          search,
          offset,
          options.pageSize + 1,
        );
  }

  return { me, verified, visible, summaryColumns, pageQuery, treatmentsColumn };
}

/**
 * What a dentist sees of patients' requests (ADR 012, ADR 007). Every query is bound to the actor:
 * an unverified dentist sees nothing; a verified one sees the open requests sent to every verified
 * dentist or to them by name, and those whose accepted offer is theirs (access/requests.ts), with
 * their own status on each.
 */
export function dentistRequestsRepo(db: Db, actor: Actor) {
  const { me, verified, visible, summaryColumns, pageQuery, treatmentsColumn } = dentistQueries(db, actor);
  const inListOrder = (present: readonly string[]) => {
    const set = new Set(present);
    return TREATMENT_TYPES.filter((type) => set.has(type));
  };

  /** The treatment types present among the requests his list shows (for its filter). */
  async function treatmentsPresent(): Promise<TreatmentType[]> {
    if (!verified) return [];
    const row = await db.selectNoFrom(treatmentsColumn).executeTakeFirst();
    return inListOrder(row?.treatments_present ?? []);
  }

  async function listPage(options: ListOptions, withTreatments: boolean) {
    // The screen in one row: the page as one JSON array (one field: on PGlite each field of each row
    // is copied and decoded in JavaScript, which cost more than PostgreSQL's building the JSON, ADR
    // 057; its dates come as ISO text), and the treatment types present, an uncorrelated subquery
    // run once, there even when the page is empty. What it is built of: the dentist's kind, the page
    // and its filters (pageQuery).
    const build = (who: Actor) => {
      const queries = dentistQueries(db, who);
      const query = queries.pageQuery(options);
      if (!query) throw new Error("liste du dentiste : rien à chercher");
      return db.selectNoFrom([
        jsonArrayFrom(query).as("rows"),
        withTreatments
          ? queries.treatmentsColumn
          : sql<TreatmentType[] | null>`null`.as("treatments_present"),
      ]);
    };
    if (!verified) return { items: [], hasMore: false, present: withTreatments ? [] : undefined };
    // Without a search, the first pages are built and compiled once per kind of dentist and page
    // (db/compiled.ts): only his id varies. A search's terms and a distance's codes shape its text:
    // built each time.
    const [screen] =
      options.search || options.near || options.page > COMPILED_PAGES
        ? await build(actor).execute()
        : await runCompiled(
            db,
            `dentist-list:${actor.limited === true}:${options.status}:${options.treatment ?? ""}:${options.page}:${options.pageSize}:${withTreatments}`,
            { me },
            (p) => build({ ...actor, userId: p.me }),
            { genericPlan: true },
          );
    const present = withTreatments ? screen?.treatments_present : undefined;
    return { ...pageOf(screen?.rows ?? [], options.pageSize), present: present ?? undefined };
  }

  return {
    verified,

    /**
     * A page's query, to be run inside another (the dashboard's one round trip, issue 38), and the
     * page made of its rows by `pageOf`; null when the dentist sees nothing.
     */
    listQuery: (options: ListOptions) => pageQuery(options),

    list(options: ListOptions) {
      return listPage(options, false).then(({ items, hasMore }) => ({ items, hasMore }));
    },

    /**
     * The list screen: a page and the treatment types present, in one round trip; in two when the
     * page is empty (no row carries the types).
     */
    async listWithTreatments(options: ListOptions) {
      const { items, hasMore, present } = await listPage(options, true);
      return { items, hasMore, treatments: present ? inListOrder(present) : await treatmentsPresent() };
    },

    treatmentsPresent,

    async find(id: string) {
      if (!verified) return undefined;
      return visible()
        .select([
          ...summaryColumns,
          "r.description",
          "r.recipient_dentist_id",
          sql<boolean>`(rd.assigned_at is not null)`.as("assigned"),
        ])
        .where("r.id", "=", id)
        .executeTakeFirst();
    },

    async documents(requestId: string) {
      return db
        .selectFrom("documents as d")
        .select(["d.id", "d.file_name", "d.size", "d.mime_type", "d.document_type", "d.created_at"])
        .where("d.request_id", "=", requestId)
        .orderBy("d.position")
        .execute();
    },

    async conversationId(requestId: string) {
      const row = await db
        .selectFrom("conversations")
        .select("id")
        .where("request_id", "=", requestId)
        .where("dentist_id", "=", me)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /**
     * The dentist opened the request page (now, or when the demo says): his 'opened' state (clears
     * 'Nouvelle', the first time only), and the line of the patient's access history (issue 14), in
     * one transaction.
     */
    async markOpened(requestId: string, at?: Date) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("request_dentists")
          .values({ request_id: requestId, dentist_id: me, opened_at: at ?? new Date() })
          .onConflict((oc) =>
            oc.columns(["request_id", "dentist_id"]).doUpdateSet({
              opened_at: sql`coalesce(request_dentists.opened_at, ${at ?? null}::timestamptz, now())`,
            }),
          )
          .execute();
        await recordAccess(trx, actor, { requestId, action: "request_view", at });
      });
    },

    /**
     * « Ne pas donner suite » (ADR 091): the request leaves his requests to answer, until he puts it
     * back or answers it. False when he has already answered it (nothing to set aside); the patient
     * is not told, and nothing of hers is read.
     */
    async setAside(requestId: string): Promise<boolean> {
      const row = await db
        .insertInto("request_dentists")
        .values({ request_id: requestId, dentist_id: me, set_aside_at: new Date() })
        .onConflict((oc) =>
          oc
            .columns(["request_id", "dentist_id"])
            .doUpdateSet({
              set_aside_at: sql`coalesce(request_dentists.set_aside_at, now())`,
              updated_at: new Date(),
            })
            .where("request_dentists.status", "=", "pending"),
        )
        .returning("request_id")
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Back among his requests to answer (undoes setAside; nothing when it was not set aside). */
    async putBack(requestId: string): Promise<void> {
      await db
        .updateTable("request_dentists")
        .set({ set_aside_at: null, updated_at: new Date() })
        .where("request_id", "=", requestId)
        .where("dentist_id", "=", me)
        .where("set_aside_at", "is not", null)
        .execute();
    },

    /**
     * « Écarter la sélection » (ADR 091's addendum): setAside for each of these requests that he
     * sees, that is not sent to him by name and that he has not answered, in one statement. The ids
     * set aside (already set aside included); the others are left as they are, unnamed (a request he
     * does not see is not told apart from one he answered).
     */
    async setAsideMany(requestIds: readonly string[]): Promise<string[]> {
      if (!verified || requestIds.length === 0) return [];
      const at = new Date();
      const rows = await db
        .insertInto("request_dentists")
        .columns(["request_id", "dentist_id", "set_aside_at"])
        .expression(
          db
            .selectFrom("requests as r")
            .select([
              "r.id",
              sql<string>`${me}::uuid`.as("dentist_id"),
              sql<Date>`${at}::timestamptz`.as("at"),
            ])
            .where("r.id", "in", requestIds)
            .where("r.recipient_dentist_id", "is", null)
            .where((eb) => requestVisibleToDentist(eb, me, actor.limited)),
        )
        .onConflict((oc) =>
          oc
            .columns(["request_id", "dentist_id"])
            .doUpdateSet({
              set_aside_at: sql`coalesce(request_dentists.set_aside_at, ${at}::timestamptz)`,
              updated_at: at,
            })
            .where("request_dentists.status", "=", "pending"),
        )
        .returning("request_id")
        .execute();
      return rows.map((row) => row.request_id);
    },

    /** « Remettre la sélection »: putBack for each of these requests he had set aside; their ids. */
    async putBackMany(requestIds: readonly string[]): Promise<string[]> {
      if (requestIds.length === 0) return [];
      const rows = await db
        .updateTable("request_dentists")
        .set({ set_aside_at: null, updated_at: new Date() })
        .where("request_id", "in", requestIds)
        .where("dentist_id", "=", me)
        .where("set_aside_at", "is not", null)
        .returning("request_id")
        .execute();
      return rows.map((row) => row.request_id);
    },

    /** 'S'assigner cette demande': this dentist takes the request on (does not lock others out, ADR 007). */
    async assign(requestId: string) {
      await db
        .insertInto("request_dentists")
        .values({ request_id: requestId, dentist_id: me, assigned_at: new Date(), opened_at: new Date() })
        .onConflict((oc) =>
          oc.columns(["request_id", "dentist_id"]).doUpdateSet({
            assigned_at: sql`coalesce(request_dentists.assigned_at, now())`,
            updated_at: new Date(),
          }),
        )
        .execute();
      // The patient sees that a dentist has engaged ('En cours', ADR 007).
      await db
        .updateTable("requests")
        .set({ status: "in_review", updated_at: new Date() })
        .where("id", "=", requestId)
        .where("status", "=", "new")
        .execute();
    },
  };
}
