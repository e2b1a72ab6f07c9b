import { readFile } from "node:fs/promises";
import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { addDays, parisToday } from "../../src/shared/format/paris";
import { DEMO, DEMO_PASSWORD, expect, leaveAsConfirmed, outbox, uniqueEmail } from "./fixtures";

/** Signs in through the API: `page.request` shares its cookies with the page's browser context. */
export async function loginViaApi(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  const response = await page.request.post("/api/account/login", {
    data: { email, password, remember_me: false },
  });
  expect(response.status(), `connexion de ${email} par l'API`).toBe(200);
}

export interface Account {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  fullName: string;
}

/**
 * Creates a throwaway patient through the API. With `page.request` the page is then signed in as
 * that patient; with the `request` fixture (its own cookie jar) the page stays signed out.
 */
export async function signupPatientViaApi(
  api: APIRequestContext,
  overrides: Partial<Pick<Account, "firstName" | "lastName">> = {},
): Promise<Account> {
  const account = {
    email: uniqueEmail("patient"),
    password: "mot-de-passe-1",
    firstName: overrides.firstName ?? "Camille",
    lastName: overrides.lastName ?? "Durand",
  };
  const response = await api.post("/api/account/signup", {
    data: {
      role: "patient",
      first_name: account.firstName,
      last_name: account.lastName,
      email: account.email,
      password: account.password,
      accept_terms: true,
    },
  });
  expect(response.status(), `inscription de ${account.email} par l'API`).toBe(201);
  return { ...account, fullName: `${account.firstName} ${account.lastName}` };
}

/** Waits until the page's URL has exactly this path (the query string is ignored). */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === pathname);
}

/**
 * Ticks 'J'accepte les conditions d'utilisation…' once the password's strength is estimated: the
 * verdict arriving moves the box, and a click landing meanwhile would miss it.
 */
export async function acceptTerms(page: Page): Promise<void> {
  await expect(page.getByTestId("password-strength")).toHaveAttribute("data-state", "ready");
  await page.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ }).check();
}

/** A sonner toast carrying this title. */
export function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

/**
 * Clicks what downloads a file, checks the file's suggested name, and returns its bytes. A download
 * the app could not make is an error toast (lib/download.ts), gone after a few seconds: the journey
 * fails with its words as soon as it shows, instead of waiting for a download that will not come
 * (a journey once waited its whole 5 minutes in CI, its toast long gone).
 */
export async function downloadFrom(trigger: Locator, name: string | RegExp): Promise<Buffer> {
  const page = trigger.page();
  const errors = page.locator("[data-sonner-toast][data-type='error']");
  const before = await errors.count();
  const download = page.waitForEvent("download");
  await trigger.click();
  // A new error toast, not one an earlier step left. Neither wait may reject once the other has
  // won (the page closes at the journey's end).
  const refusal = page
    .waitForFunction(
      (count) => document.querySelectorAll("[data-sonner-toast][data-type='error']").length > count,
      before,
      { timeout: 0 },
    )
    .then(
      async () => ({
        refused:
          (await errors
            .first()
            .textContent()
            .catch(() => null)) ?? "",
      }),
      () => ({ refused: "" }),
    );
  const outcome = await Promise.race([
    download.then(
      (file) => ({ file }),
      (error: Error) => ({ refused: error.message }),
    ),
    refusal,
  ]);
  if (!("file" in outcome)) throw new Error(`Le téléchargement a échoué dans la page : ${outcome.refused}`);
  const { file } = outcome;
  if (typeof name === "string") expect(file.suggestedFilename()).toBe(name);
  else expect(file.suggestedFilename()).toMatch(name);
  return readFile(await file.path());
}

/** A small valid PDF: the server checks the content, not only the name. */
export const TINY_PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);

/** A file of a request sent through the API: its bytes, name, MIME type and document type. */
export interface RequestFile {
  bytes: Uint8Array;
  name: string;
  type: string;
  documentType: string;
}

/** A PDF of a request (TINY_PDF by default), typed 'Devis' unless said otherwise. */
export function pdfFile(name: string, documentType = "quote", bytes: Uint8Array = TINY_PDF): RequestFile {
  return { bytes, name, type: "application/pdf", documentType };
}

/**
 * A request to every verified dentist with these files, as the signed-in patient of this request
 * context (consent given, medium urgency unless `fields` say otherwise). Returns its id.
 */
export async function postRequestViaApi(
  api: APIRequestContext,
  fields: Record<string, string>,
  files: readonly RequestFile[],
): Promise<string> {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    urgency: "medium",
    recipient: "all",
    consent: "true",
    ...fields,
    document_types: JSON.stringify(files.map((file) => file.documentType)),
  }))
    form.append(name, value);
  for (const file of files)
    form.append("files", new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
  const created = await api.post("/api/patient/requests", { multipart: form });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/**
 * A request for a crown with a quote and the amount of the patient's quote (for the saving), as the
 * signed-in patient of this request context. Returns its id.
 */
export async function fileRequestViaApi(api: APIRequestContext): Promise<string> {
  return postRequestViaApi(
    api,
    {
      treatment_type: "crown",
      description: "Couronne sur la 46, devis de 1 500 € reçu.",
      budget: "",
      quote_amount: "1500",
    },
    [pdfFile("devis-couronne.pdf")],
  );
}

/** A 1×1 PNG: the server checks the content, not only the name. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * An 11-digit RPPS number: ten digits and their Luhn key. Computed here, not with the product's own
 * function, so that a journey would notice a wrong key rule.
 */
export function rppsWithKey(tenDigits: string): string {
  for (let key = 0; key <= 9; key += 1) {
    const digits = `${tenDigits}${key}`;
    let sum = 0;
    for (let i = 0; i < digits.length; i += 1) {
      let d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error("unreachable");
}

/** Where a new dentist of a journey practises: his first name, city, phone and practice. */
export interface DentistPractice {
  firstName: string;
  city: string;
  phone: string;
  address: string;
  postcode: string;
}

/**
 * A new dentist who completed the profile (RPPS, practice) and asked for verification, all through
 * the API of `api` (a page's request context, which is then signed in as this dentist).
 */
export async function pendingDentistViaApi(api: APIRequestContext, practice: DentistPractice) {
  const lastName = uniqueWord("Dentiste");
  const email = uniqueEmail("dentiste");
  const fullName = `${practice.firstName} ${lastName}`;
  const signup = await api.post("/api/account/signup", {
    data: {
      role: "dentist",
      first_name: practice.firstName,
      last_name: lastName,
      city: practice.city,
      phone_number: practice.phone,
      email,
      password: "mot-de-passe-1",
      password_confirmation: "mot-de-passe-1",
      accept_terms: true,
    },
  });
  expect(signup.status(), "inscription du dentiste").toBe(201);
  const rpps = rppsWithKey(String(1_000_000_000 + Math.floor(Math.random() * 8_999_999_999)).slice(0, 10));
  const saved = await api.patch("/api/me", {
    data: {
      full_name: fullName,
      city: practice.city,
      phone_number: practice.phone,
      rpps,
      practice_address: practice.address,
      practice_postcode: practice.postcode,
    },
  });
  expect(saved.status(), "profil du dentiste").toBe(200);
  const id = ((await saved.json()) as { profile: { id: string } }).profile.id;
  const asked = await api.post("/api/me/verification-request");
  expect(asked.status(), "demande de vérification").toBe(200);
  return { id, email, fullName, lastName, rpps };
}

/** Letters only, different on every run (a worker's demo database is shared by its journeys). */
export function uniqueWord(prefix: string): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let suffix = "";
  let n = Date.now() * 100 + Math.floor(Math.random() * 100);
  while (n > 0) {
    suffix += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return `${prefix}${suffix}`;
}

/** The newest e-mail of the outbox sent to this address. */
export function newestMailTo(email: string): string | undefined {
  return outbox()
    .filter((mail) => new RegExp(`^To: .*${email.replace(/[.+]/g, "\\$&")}`, "mi").test(mail))
    .at(-1);
}

/** A second person in their own browser context (own cookies). */
export async function newPerson(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  leaveAsConfirmed(page);
  return { context, page };
}

/** `page.goto` of the fixtures (waits for the app to be ready), for pages of other contexts. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
}

/**
 * An island of a pre-rendered page hydrated when it comes near the screen (the testimonials, the
 * contact form: ADR 053, addendum of 02/12/2026): brought into view, then waited for.
 */
export async function islandHydrated(page: Page, name: "testimonials" | "contact-form"): Promise<void> {
  const island = page.locator(`[data-island="${name}"]`);
  await island.locator("> *").first().scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute("data-hydrated", "true");
}

/** A line of a dentist's devis: the act's code and label, the tooth, the fee. */
interface OfferLine {
  code: string;
  act: string;
  tooth: number;
  fee_cents: number;
}

/** What a dentist's offer says: the amount, a comment, the devis lines and the proposed slots. */
interface OfferInput {
  amount_cents: number;
  comment: string;
  lines: OfferLine[];
  slots: string[];
}

/** A dentist's offer through the API, as that dentist (their own browser context), valid 30 days. */
async function postOfferViaApi(dentist: Page, requestId: string, offer: OfferInput): Promise<void> {
  const response = await dentist.request.post(`/api/dentist/requests/${requestId}/offers`, {
    data: { ...offer, valid_until: addDays(parisToday(new Date()), 30) },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** A crown offer without lines, at this amount, proposing one slot. */
export async function sendOffer(dentist: Page, requestId: string, amountCents: number, slot: string) {
  await postOfferViaApi(dentist, requestId, {
    amount_cents: amountCents,
    comment: "Couronne céramique, deux séances.",
    lines: [],
    slots: [slot],
  });
}

/**
 * A dentist's offer of these devis lines, for their total and without slots, through the API, signed
 * in in a browser context of their own, closed after.
 */
export async function offerAsDentist(
  browser: Browser,
  baseURL: string | undefined,
  email: string,
  requestId: string,
  comment: string,
  lines: OfferLine[],
): Promise<void> {
  const { context, page } = await newPerson(browser, baseURL);
  await loginViaApi(page, email);
  const amount_cents = lines.reduce((sum, line) => sum + line.fee_cents, 0);
  await postOfferViaApi(page, requestId, { amount_cents, comment, lines, slots: [] });
  await context.close();
}

/** A dentist's page of a request that does not exist: 'Demande non trouvée', and the way back to the list. */
export async function expectDentistRequestNotFound(page: Page, path: string): Promise<void> {
  await loginViaApi(page, DEMO.dentist);
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeVisible();
  await expect(page.getByText("Impossible de trouver cette demande.")).toBeVisible();
  await page.getByRole("link", { name: "Retour aux demandes" }).click();
  await expectPath(page, "/dentist/quote-requests");
}

/** A new patient signed in on `page`, with a last name nobody else has (found in lists). */
export async function signupUniquePatient(page: Page, firstName: string) {
  const lastName = uniqueWord("Aide");
  const account = await signupPatientViaApi(page.request, { firstName, lastName });
  return { account, lastName };
}

/** The support inbox (/admin/chat-messages) of the demo administrator, as `page`. */
export async function openSupportInbox(page: Page): Promise<void> {
  await loginViaApi(page, DEMO.admin);
  await page.goto("/admin/chat-messages");
  await expect(page.getByRole("heading", { level: 1, name: "Support" })).toBeVisible();
}

/** Writes to the team from the 'Besoin d'aide ?' page shown; returns the thread, message in it. */
export async function writeToSupport(page: Page, question: string) {
  await page.getByLabel("Votre message à l'équipe").fill(question);
  await page.getByLabel("Votre message à l'équipe").press("Enter");
  await expect(toast(page, "Votre message a été envoyé à l'équipe")).toBeVisible();
  const thread = page.getByRole("list", { name: "Messages" });
  await expect(thread.getByText(question)).toBeVisible();
  return thread;
}

/** The team's answer in the open support conversation with this person. */
export async function answerAsTeam(page: Page, name: string, answer: string): Promise<void> {
  const conversation = page.getByRole("region", { name: `Conversation avec ${name}` });
  await conversation.getByLabel(`Votre réponse à ${name}`).fill(answer);
  await conversation.getByRole("button", { name: "Envoyer" }).click();
  await expect(toast(page, "Réponse envoyée")).toBeVisible();
}
