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
