import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fakeExe, multipart, tinyPdf, tinyPng } from "../../testing/files";
import { appPerFile, signUpDentist, signUpPatient } from "../../testing/harness";

const ctx = appPerFile();

const patch = (cookie: string | undefined, payload: object) =>
  ctx.app.inject({ method: "PATCH", url: "/api/me", payload, headers: cookie ? { cookie } : {} });
const avatar = (cookie: string, content: Buffer, name = "moi.png", type = "image/png") => {
  const body = multipart({}, [{ field: "avatar", name, type, content }]);
  return ctx.app.inject({
    method: "POST",
    url: "/api/me/avatar",
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
};

describe("editing my profile", () => {
  it("splits the full name, stores empty phone and city as null, ignores e-mail and flags", async () => {
    const { cookie, body } = await signUpPatient(ctx.app);
    const response = await patch(cookie, {
      full_name: "  Marie  Anne Dupont ",
      phone_number: "   ",
      city: "",
      email: "autre@example.com",
      is_admin: true,
      role: "dentist",
      bio: "ignored for patients",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({
      first_name: "Marie",
      last_name: "Anne Dupont",
      full_name: "Marie Anne Dupont",
      phone_number: null,
      city: null,
      email: body.email,
      is_admin: false,
      role: "patient",
      bio: "",
    });
  });

  it("keeps the fields a caller does not send", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    await patch(cookie, { full_name: "Marie Dupont", phone_number: "0600000000", city: "Lyon" });
    const response = await patch(cookie, { full_name: "Marie Durand" });
    expect(response.json().profile).toMatchObject({
      full_name: "Marie Durand",
      phone_number: "0600000000",
      city: "Lyon",
    });
  });

  it("refuses a phone number that cannot be one, naming the field; keeps a French or international one", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const refused = await patch(cookie, { full_name: "Marie Dupont", phone_number: "abc" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      fields: { phone_number: "Ce numéro de téléphone n'est pas valide." },
    });
    for (const phone of ["06 12 34 56 78", "+33 6 12 34 56 78", "06.12.34.56.78"]) {
      const response = await patch(cookie, { full_name: "Marie Dupont", phone_number: phone });
      expect(response.statusCode, phone).toBe(200);
      expect(response.json().profile.phone_number).toBe(phone);
    }
  });

  it("refuses an empty name with the French message", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const response = await patch(cookie, { full_name: "   " });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe("Veuillez saisir votre nom complet");
  });

  it("lets a dentist set a biography and specialties (trimmed, unique, non-empty)", async () => {
    const { cookie } = await signUpDentist(ctx.app);
    const response = await patch(cookie, {
      full_name: "Julien Martin",
      bio: "  Implantologue  ",
      specialties: ["Implantologie", " Implantologie ", "", "Parodontie"],
    });
    expect(response.json().profile).toMatchObject({
      bio: "Implantologue",
      specialties: ["Implantologie", "Parodontie"],
    });
  });

  it("refuses to clear a dentist's city or phone (asked at sign-up), naming each; a patient may", async () => {
    const { cookie } = await signUpDentist(ctx.app);
    const refused = await patch(cookie, { full_name: "Julien Martin", city: " ", phone_number: "" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      fields: {
        city: "Renseignez la ville de votre cabinet.",
        phone_number: "Renseignez le téléphone de votre cabinet.",
      },
    });
    // Nothing changed; absent fields stay as they are, and a new city is taken.
    const kept = await patch(cookie, { full_name: "Julien Martin", city: "Lyon" });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().profile.city).toBe("Lyon");
    expect(kept.json().profile.phone_number).not.toBeNull();
  });

  it("answers 401 when signed out", async () => {
    expect((await patch(undefined, { full_name: "X" })).statusCode).toBe(401);
  });
});

describe("the e-mails one may stop (ADR 081)", () => {
  const preferences = (cookie: string | undefined, payload: object) =>
    ctx.app.inject({
      method: "PATCH",
      url: "/api/me/email-preferences",
      payload,
      headers: cookie ? { cookie } : {},
    });
  const me = async (cookie: string) =>
    (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).json().profile;

  it("are all on at first; each changes alone, the others stay, and the session shows it", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    expect((await me(cookie)).email_preferences).toEqual({
      messages: true,
      reminders: true,
      reviews: true,
      new_requests: true,
    });
    const stopped = await preferences(cookie, { reviews: false });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().profile.email_preferences).toEqual({
      messages: true,
      reminders: true,
      reviews: false,
      new_requests: true,
    });
    await preferences(cookie, { messages: false });
    expect((await me(cookie)).email_preferences).toEqual({
      messages: false,
      reminders: true,
      reviews: false,
      new_requests: true,
    });
    await preferences(cookie, { new_requests: false });
    expect((await me(cookie)).email_preferences).toMatchObject({ messages: false, new_requests: false });
    // Only these four: nothing else of the profile changes through this route.
    const other = await preferences(cookie, { full_name: "Autre Nom", is_admin: true, reviews: true });
    expect(other.statusCode).toBe(200);
    expect(other.json().profile).toMatchObject({ is_admin: false, email_preferences: { reviews: true } });
    expect(other.json().profile.full_name).not.toBe("Autre Nom");
  });

  it("refuses what is not yes or no with a French 400 naming the field, changing nothing", async () => {
    const { cookie } = await signUpDentist(ctx.app);
    const refused = await preferences(cookie, { messages: "non" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ messages: "Choisissez oui ou non." });
    expect((await me(cookie)).email_preferences.messages).toBe(true);
  });

  it("answers 401 when signed out", async () => {
    expect((await preferences(undefined, { messages: false })).statusCode).toBe(401);
  });
});

describe("avatar", () => {
  it("answers 401 when signed out", async () => {
    const body = multipart({}, [{ field: "avatar", name: "moi.png", type: "image/png", content: tinyPng() }]);
    const response = await ctx.app.inject({ method: "POST", url: "/api/me/avatar", ...body });
    expect(response.statusCode).toBe(401);
  });

  it("stores a resized WebP under a public, immutable URL and replaces the previous one", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const first = await avatar(cookie, tinyPng(600, 400));
    expect(first.statusCode).toBe(200);
    const url = first.json().profile.avatar_url as string;
    expect(url).toMatch(/^\/api\/avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp$/);
    const image = await ctx.app.inject({ method: "GET", url });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/webp");
    expect(image.headers["cache-control"]).toContain("immutable");
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);

    const second = await avatar(cookie, tinyPng(300, 300));
    expect(second.json().profile.avatar_url).not.toBe(url);
    expect((await ctx.app.inject({ method: "GET", url })).statusCode).toBe(404);
  });

  it("refuses a PDF or an executable named .png, and an image over 5 MB", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const pdf = await avatar(cookie, tinyPdf(), "photo.png");
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().error.message).toBe("Veuillez choisir une image JPG ou PNG.");
    expect((await avatar(cookie, fakeExe())).statusCode).toBe(415);
    const big = Buffer.concat([tinyPng(), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const tooBig = await avatar(cookie, big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.message).toBe("L'image est trop volumineuse (max 5 Mo)");
  });

  it("answers 404 for an unknown avatar and for paths outside the avatars", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/avatars/x/y.webp" })).statusCode).toBe(404);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/avatars/..%2F..%2Fauth-secret/x" })).statusCode,
    ).toBe(404);
  });
});
