import { sql } from "kysely";
import type { DentistStatus } from "../../../shared/domain/dentist";
import { TREATMENT_LABELS, TREATMENT_TYPES, type TreatmentType } from "../../../shared/domain/treatments";
import { keysMatchingLabel } from "../../../shared/format/search";
import type { Db } from "../../db/index";
import type { Actor } from "../../session";
import { visibleToDentist } from "../requests/requests.repo";

/**
 * What a dentist sees of patients' requests (decisions D6, D7). Every query is bound to the actor:
 * an unverified dentist sees nothing; a verified one sees requests sent to every verified dentist
 * and those sent to them by name, never a cancelled one, with their own status on each.
 */
export function dentistRequestsRepo(db: Db, actor: Actor) {
  const me = actor.userId;
  const verified = actor.profile.role === "dentist" && actor.profile.is_verified;

  const visible = () =>
    db
      .selectFrom("requests as r")
      .innerJoin("profiles as p", "p.id", "r.patient_id")
      .leftJoin("request_dentists as rd", (join) =>
        join.onRef("rd.request_id", "=", "r.id").on("rd.dentist_id", "=", me),
      )
      .where((eb) => visibleToDentist(eb, me));

  const summaryColumns = [
    "r.id",
    "p.full_name as patient_name",
    "r.treatment_type",
    "r.created_at",
    "r.budget",
    "r.urgency",
    sql<DentistStatus>`coalesce(rd.status, 'pending')`.as("my_status"),
    sql<boolean>`(rd.opened_at is null)`.as("is_new"),
  ] as const;

  return {
    verified,

    async list(options: {
      search: string;
      status: "all" | DentistStatus;
      treatment?: TreatmentType | undefined;
      page: number;
      pageSize: number;
    }) {
      if (!verified) return { items: [], hasMore: false };
      let query = visible();
      if (options.status === "pending") {
        query = query.where((eb) => eb.or([eb("rd.status", "is", null), eb("rd.status", "=", "pending")]));
      } else if (options.status !== "all") {
        query = query.where("rd.status", "=", options.status);
      }
      if (options.treatment) query = query.where("r.treatment_type", "=", options.treatment);
      if (options.search) {
        const treatments = keysMatchingLabel(options.search, TREATMENT_LABELS);
        const pattern = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb("p.full_name", "ilike", pattern),
            ...(treatments.length ? [eb("r.treatment_type", "in", treatments)] : []),
          ]),
        );
      }
      const rows = await query
        .select(summaryColumns)
        .orderBy("r.created_at", "desc")
        .orderBy("r.id", "desc")
        .limit(options.pageSize + 1)
        .offset((options.page - 1) * options.pageSize)
        .execute();
      return { items: rows.slice(0, options.pageSize), hasMore: rows.length > options.pageSize };
    },

    /** The treatment types present among the visible requests (for the list's filter). */
    async treatmentsPresent(): Promise<TreatmentType[]> {
      if (!verified) return [];
      const present: TreatmentType[] = [];
      const checks = await Promise.all(
        TREATMENT_TYPES.map((type) =>
          db
            .selectFrom("requests as r")
            .select("r.id")
            .where("r.treatment_type", "=", type)
            .where((eb) => visibleToDentist(eb, me))
            .limit(1)
            .executeTakeFirst(),
        ),
      );
      checks.forEach((row, i) => {
        const type = TREATMENT_TYPES[i];
        if (row && type) present.push(type);
      });
      return present;
    },

    async find(id: string) {
      if (!verified) return undefined;
      return visible()
        .select([
          ...summaryColumns,
          "r.description",
          "r.recipient_dentist_id",
          "p.email as patient_email",
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

    /** Records that this dentist opened the request (clears 'Nouvelle'); the first time only. */
    async markOpened(requestId: string) {
      await db
        .insertInto("request_dentists")
        .values({ request_id: requestId, dentist_id: me, opened_at: new Date() })
        .onConflict((oc) =>
          oc
            .columns(["request_id", "dentist_id"])
            .doUpdateSet({ opened_at: sql`coalesce(request_dentists.opened_at, now())` }),
        )
        .execute();
    },

    /** 'S'assigner cette demande': this dentist takes the request on (does not lock others out, D7). */
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
      // The patient sees that a dentist has engaged (D8).
      await db
        .updateTable("requests")
        .set({ status: "in_review", updated_at: new Date() })
        .where("id", "=", requestId)
        .where("status", "=", "new")
        .execute();
    },
  };
}
