import { describe, expect, it } from "vitest";
import { rppsWithKey } from "../../../shared/policies/verification";
import { appPerFile, signUpDentist, signUpPatient } from "../../testing/harness";

const ctx = appPerFile();

const VALID_RPPS = rppsWithKey("1000345678"); // 10003456786
/** A dentist's professional details, as the profile form sends them. */
const PRACTICE = { rpps: VALID_RPPS, practice_address: "12 rue de la Paix", practice_postcode: "75002" };
const RPPS_MESSAGE = "Le numéro RPPS doit comporter 11 chiffres valides.";

const patch = (cookie: string, payload: object) =>
  ctx.app.inject({ method: "PATCH", url: "/api/me", payload, headers: { cookie } });
const requestVerification = (cookie?: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/me/verification-request",
    headers: cookie ? { cookie } : {},
  });
const me = async (cookie: string) =>
  (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).json().profile;

async function dentistWithPractice() {
  const { cookie, response } = await signUpDentist(ctx.app);
  const id = response.json().profile.id as string;
  const saved = await patch(cookie, { full_name: "Julien Martin", ...PRACTICE });
  expect(saved.statusCode).toBe(200);
  return { cookie, id };
}

async function auditRows(subjectId: string) {
  return ctx.app.db
    .selectFrom("audit_log")
    .selectAll()
    .where("subject_id", "=", subjectId)
    .where("action", "=", "verification.requested")
    .execute();
}

describe("RPPS number and practice address on PATCH /api/me", () => {
  it("accepts an 11-digit RPPS with a valid Luhn key (spaces ignored), the address and the postcode", async () => {
    const { cookie } = await signUpDentist(ctx.app);
    const response = await patch(cookie, {
      full_name: "Julien Martin",
      rpps: " 1000 3456 786 ",
      practice_address: "  12 rue de la Paix ",
      practice_postcode: "75002",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({
      rpps: VALID_RPPS,
      practice_address: "12 rue de la Paix",
      practice_postcode: "75002",
      verification_state: "none",
      verification_requested_at: null,
    });
    expect(await me(cookie)).toMatchObject({ rpps: VALID_RPPS, practice_postcode: "75002" });
  });

  it("refuses a wrong Luhn key, a wrong length and letters with the French message on the field", async () => {
    const { cookie } = await signUpDentist(ctx.app);
    for (const rpps of ["10003456785", "1000345678", "100034567860", "1000345678A"]) {
      const response = await patch(cookie, { full_name: "Julien Martin", rpps });
      expect(response.statusCode, rpps).toBe(400);
      expect(response.json().error).toMatchObject({
        code: "VALIDATION_ERROR",
        message: RPPS_MESSAGE,
        fields: { rpps: RPPS_MESSAGE },
      });
    }
    expect((await me(cookie)).rpps).toBeNull();
  });

  it("refuses a postcode that is not five digits, and an address over 200 characters", async () => {
    const { cookie } = await signUpDentist(ctx.app);
    for (const practice_postcode of ["7500", "750021", "2A004", "75 002"]) {
      const response = await patch(cookie, { full_name: "Julien Martin", practice_postcode });
      expect(response.statusCode, practice_postcode).toBe(400);
      expect(response.json().error.fields).toEqual({ practice_postcode: "Code postal invalide" });
    }
    const long = await patch(cookie, { full_name: "Julien Martin", practice_address: "a".repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields).toEqual({ practice_address: "Ce champ est trop long" });
  });

  it("clears the fields when sent empty and keeps them when absent", async () => {
    const { cookie } = await dentistWithPractice();
    const kept = await patch(cookie, { full_name: "Julien Martin", city: "Lyon" });
    expect(kept.json().profile).toMatchObject({ rpps: VALID_RPPS, practice_postcode: "75002" });
    const cleared = await patch(cookie, {
      full_name: "Julien Martin",
      rpps: "",
      practice_address: " ",
      practice_postcode: null,
    });
    expect(cleared.json().profile).toMatchObject({
      rpps: null,
      practice_address: null,
      practice_postcode: null,
    });
  });

  it("ignores them for a patient", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const response = await patch(cookie, { full_name: "Marie Dupont", ...PRACTICE });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({
      rpps: null,
      practice_address: null,
      practice_postcode: null,
      verification_state: "none",
    });
  });
});

describe("POST /api/me/verification-request", () => {
  it("answers 400 naming what is missing, and writes nothing", async () => {
    const { cookie, response } = await signUpDentist(ctx.app);
    const id = response.json().profile.id as string;
    const empty = await requestVerification(cookie);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      message:
        "Renseignez votre numéro RPPS et l'adresse de votre cabinet avant de demander une vérification.",
      fields: {
        rpps: "Renseignez votre numéro RPPS.",
        practice_address: "Renseignez l'adresse de votre cabinet.",
        practice_postcode: "Renseignez le code postal de votre cabinet.",
      },
    });

    await patch(cookie, { full_name: "Julien Martin", rpps: VALID_RPPS });
    const noAddress = await requestVerification(cookie);
    expect(noAddress.statusCode).toBe(400);
    expect(Object.keys(noAddress.json().error.fields)).toEqual(["practice_address", "practice_postcode"]);
    expect((await me(cookie)).verification_state).toBe("none");
    expect(await auditRows(id)).toHaveLength(0);
  });

  it("records the request, answers the profile in the 'requested' state and writes the audit row", async () => {
    const { cookie, id } = await dentistWithPractice();
    const before = Date.now();
    const response = await requestVerification(cookie);
    expect(response.statusCode).toBe(200);
    const profile = response.json().profile;
    expect(profile).toMatchObject({ verification_state: "requested", is_verified: false });
    expect(new Date(profile.verification_requested_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await me(cookie)).toMatchObject({ verification_state: "requested" });

    const rows = await auditRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_id: id, subject_type: "profile", subject_id: id });
    expect(rows[0]?.details).toMatchObject({ rpps: VALID_RPPS });
  });

  it("refuses a second request with 409 and the French message", async () => {
    const { cookie, id } = await dentistWithPractice();
    expect((await requestVerification(cookie)).statusCode).toBe(200);
    const again = await requestVerification(cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: "CONFLICT",
      message: "Votre demande de vérification a déjà été envoyée ; notre équipe l'examine.",
    });
    expect(await auditRows(id)).toHaveLength(1);
  });

  it("gives one request when two arrive at once", async () => {
    const { cookie, id } = await dentistWithPractice();
    const answers = await Promise.all([requestVerification(cookie), requestVerification(cookie)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await auditRows(id)).toHaveLength(1);
  });

  it("refuses a verified dentist with 409", async () => {
    const { cookie, id } = await dentistWithPractice();
    await ctx.app.db.updateTable("profiles").set({ is_verified: true }).where("id", "=", id).execute();
    expect((await me(cookie)).verification_state).toBe("verified");
    const response = await requestVerification(cookie);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe("Votre compte est déjà vérifié.");
    expect(await auditRows(id)).toHaveLength(0);
  });

  it("keeps a verified dentist's RPPS number and practice as the team checked them (ADR 075)", async () => {
    const { cookie, id } = await dentistWithPractice();
    await ctx.app.db.updateTable("profiles").set({ is_verified: true }).where("id", "=", id).execute();
    const before = await me(cookie);
    const changes = {
      rpps: rppsWithKey("1999999999"),
      practice_address: "3 place Bellecour",
      practice_postcode: "69002",
    };
    for (const [field, value] of Object.entries(changes)) {
      const response = await patch(cookie, { full_name: "Julien Martin", ...PRACTICE, [field]: value });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().error).toEqual({
        code: "VALIDATION_ERROR",
        message:
          "Votre numéro RPPS et l'adresse de votre cabinet ont été vérifiés par notre équipe\u202f: pour les changer (déménagement, erreur), écrivez-nous depuis Besoin d'aide.",
        fields: {
          [field]: "Vérifié par notre équipe\u202f: pour le changer, écrivez-nous depuis Besoin d'aide.",
        },
      });
    }
    // Cleared is a change too; all three at once are named each.
    const cleared = await patch(cookie, { full_name: "Julien Martin", ...changes, rpps: "" });
    expect(Object.keys(cleared.json().error.fields).sort()).toEqual([
      "practice_address",
      "practice_postcode",
      "rpps",
    ]);
    // Nothing of a refused form is written, the rest of it neither.
    const refused = await patch(cookie, { full_name: "Jules Martin", bio: "Nouvelle bio", ...changes });
    expect(refused.statusCode).toBe(400);
    expect(await me(cookie)).toEqual(before);

    // The form as it comes (the same values) saves everything else; a field left out is kept.
    const saved = await patch(cookie, { full_name: "Jules Martin", bio: "Nouvelle bio", ...PRACTICE });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().profile).toMatchObject({
      full_name: "Jules Martin",
      bio: "Nouvelle bio",
      ...PRACTICE,
    });
    expect((await patch(cookie, { full_name: "Jules Martin" })).statusCode).toBe(200);
    expect(await me(cookie)).toMatchObject({ ...PRACTICE, verification_state: "verified" });
  });

  it("lets a dentist change them again once his verification is withdrawn, to ask for a new one", async () => {
    const { cookie, id } = await dentistWithPractice();
    await ctx.app.db
      .updateTable("profiles")
      .set({ is_verified: false, verification_decided_at: new Date() })
      .where("id", "=", id)
      .execute();
    expect((await me(cookie)).verification_state).toBe("withdrawn");
    const moved = { ...PRACTICE, practice_address: "3 place Bellecour", practice_postcode: "69002" };
    const response = await patch(cookie, { full_name: "Julien Martin", ...moved });
    expect(response.statusCode, response.body).toBe(200);
    expect(await me(cookie)).toMatchObject(moved);
    expect((await requestVerification(cookie)).statusCode).toBe(200);
  });

  it("answers 403 to a patient and 401 when signed out", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const patient = await requestVerification(cookie);
    expect(patient.statusCode).toBe(403);
    expect(patient.json().error.code).toBe("FORBIDDEN");
    const anonymous = await requestVerification();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("UNAUTHENTICATED");
  });
});
