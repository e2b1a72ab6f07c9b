import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { startTrialOnVerification } from "../access/subscription";
import { appPerFile, postRequest } from "../testing/harness";
import {
  api,
  peoplePerFile,
  postForm,
  signInAdmin,
  patient as signUpPatient,
  type Who,
} from "../testing/people";
import { FOLDED_LETTERS, foldName } from "./search-fold";

/*
 * Names are found without their accents, case or ligatures (migration 052): what a French user types
 * (« ines », « guerin », « nguyen ») finds « Inès », « Guérin », « Nguyễn » in every list searched by
 * name: the dentist's requests, the conversations, the admin's users, subscriptions and support
 * threads. The database folds names (`search_fold`) exactly as the server folds what was typed
 * (`foldName`), letter by letter.
 */

const ctx = appPerFile();
const { get, post } = api(ctx);
const who = peoplePerFile(ctx, {
  patients: [],
  dentists: { drH: { first_name: "Hélène", last_name: "Guérin" } },
});

const folded = async (texts: string[]) =>
  (
    await sql<{
      f: string;
    }>`select search_fold(t) as f from unnest(${texts}::text[]) with ordinality as u(t, n) order by n`.execute(
      ctx.app.db,
    )
  ).rows.map((row) => row.f);

describe("the fold", () => {
  it("is the same in the database as in the server, for every folded letter in either case", async () => {
    const letters = [
      ...FOLDED_LETTERS.from,
      ...FOLDED_LETTERS.from.toLowerCase(),
      ...FOLDED_LETTERS.from.toUpperCase(),
    ];
    expect(await folded(letters)).toEqual(letters.map(foldName));
    const names = [
      "Inès Blanc",
      "Marc GUÉRIN",
      "Lœwy-Nguyễn",
      "ÆSCHLIMANN",
      "ŒUVRE STRAẞE",
      "Strauß",
      "Łukasz Ørsted",
      "Ines\u0300",
      "O'Brien 50 % _x",
    ];
    expect(await folded(names)).toEqual(names.map(foldName));
  });

  it("removes accents, case and ligatures, and nothing else", () => {
    expect(foldName("Inès Blanc")).toBe("ines blanc");
    expect(foldName("Marc GUÉRIN")).toBe("marc guerin");
    expect(foldName("Lœwy-Nguyễn")).toBe("loewy-nguyen");
    expect(foldName("Łukasz Ørsted, Strauß")).toBe("lukasz orsted, strauss");
    expect(foldName("Ine\u0300s")).toBe("ines");
    expect(foldName("Андрей")).toBe("андрей");
    expect(foldName("O'Brien 50 % _x")).toBe("o'brien 50 % _x");
  });

  it("serves the name search from the trigram index on the folded name", async () => {
    const plan = await ctx.app.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return (
        await sql<{
          "QUERY PLAN": string;
        }>`explain select id from profiles where search_fold(full_name) ilike ${"%ines%"}`.execute(trx)
      ).rows
        .map((row) => row["QUERY PLAN"])
        .join("\n");
    });
    expect(plan).toContain("profiles_full_name_fold_trgm_idx");
  });
});

describe("the lists searched by name", () => {
  let patient: Who;
  let requestId: string;

  it("find « Élodie Lœwy-Nguyễn » and « Hélène Guérin » typed without accents", async () => {
    patient = await signUpPatient(ctx.app, { first_name: "Élodie", last_name: "Lœwy-Nguyễn" });
    const created = await postRequest(ctx.app, patient.cookie, {
      treatment_type: "crown",
      consent: "true",
      budget: "900 €",
    });
    expect(created.statusCode, created.body).toBe(201);
    requestId = created.json().id;
    const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

    // the dentist's requests, all of them and one status
    for (const typed of ["elodie", "LOEWY", "nguyen", "Élodie", "lœwy-nguyễn"]) {
      const all = (await get(`/api/dentist/requests?search=${encodeURIComponent(typed)}`, who.drH)).json();
      expect(ids(all), typed).toEqual([requestId]);
      const pending = (
        await get(`/api/dentist/requests?status=pending&search=${encodeURIComponent(typed)}`, who.drH)
      ).json();
      expect(ids(pending), typed).toEqual([requestId]);
    }
    expect(ids((await get("/api/dentist/requests?search=elodiex", who.drH)).json())).toEqual([]);

    // the conversations, from either side
    const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour" }, who.drH);
    expect(reply.statusCode, reply.body).toBe(201);
    const conversation = reply.json().conversation_id;
    expect(ids((await get("/api/conversations?search=elodie", who.drH)).json())).toEqual([conversation]);
    expect(ids((await get("/api/conversations?search=helene%20guerin", patient)).json())).toEqual([
      conversation,
    ]);
    expect(ids((await get("/api/conversations?search=heleneguerin", patient)).json())).toEqual([]);

    // the admin's lists: users, subscriptions, support threads
    const admin = await signInAdmin(ctx.app);
    const users = (await get("/api/admin/users?role=patient&search=elodie", admin)).json();
    expect(ids(users)).toEqual([patient.id]);
    const dentists = (await get("/api/admin/users?role=dentist&search=GUERIN", admin)).json();
    expect(ids(dentists)).toEqual([who.drH?.id]);
    await startTrialOnVerification(ctx.app.db, who.drH?.id ?? "", new Date());
    const subscriptions = (await get("/api/admin/subscriptions?search=helene", admin)).json();
    expect(subscriptions.items.map((item: { dentist_id: string }) => item.dentist_id)).toEqual([who.drH?.id]);
    const sent = await postForm(ctx.app, "/api/support/messages", patient, { body: "Bonjour l'équipe" });
    expect(sent.statusCode, sent.body).toBe(201);
    const threads = (await get("/api/admin/support/threads?search=nguyen", admin)).json();
    expect(threads.items.map((item: { patient_id: string }) => item.patient_id)).toEqual([patient.id]);
  });
});
