import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO_PASSWORD, expect, uniqueEmail } from "./fixtures";

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

/** A sonner toast carrying this title. */
export function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

/** A small valid PDF: the server checks the content, not only the name. */
export const TINY_PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);

/**
 * A request to every verified dentist, with a quote and the amount of the patient's quote (for the
 * saving), as the signed-in patient of this request context. Returns its id.
 */
export async function fileRequestViaApi(api: APIRequestContext): Promise<string> {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    treatment_type: "crown",
    description: "Couronne sur la 46, devis de 1 500 € reçu.",
    budget: "",
    quote_amount: "1500",
    urgency: "medium",
    recipient: "all",
    consent: "true",
    document_types: JSON.stringify(["quote"]),
  }))
    form.append(name, value);
  form.append("files", new File([TINY_PDF], "devis-couronne.pdf", { type: "application/pdf" }));
  const created = await api.post("/api/patient/requests", { multipart: form });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}
