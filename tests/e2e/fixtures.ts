import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { decodeQuotedPrintable } from "../../src/server/testing/mail";

export const DEMO_PASSWORD = "sourio-demo";
export const DEMO = {
  admin: "admin@demo.sourio.fr",
  patient: "patient@demo.sourio.fr",
  dentist: "dr.martin@demo.sourio.fr",
  dentist2: "dr.leroy@demo.sourio.fr",
  unverifiedDentist: "dr.bernard@demo.sourio.fr",
} as const;

/**
 * The server started by global-setup.ts. `page.goto` waits until the page has rendered or hydrated
 * in the browser (<html data-ready>): public pages arrive pre-rendered, and a click before
 * hydration would do nothing.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      return response;
    };
    await use(page);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures need the destructuring pattern.
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL manquant : lancez les tests avec npm test");
    await use(url);
  },
});
export { expect };

let counter = 0;
export function uniqueEmail(prefix = "e2e"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** The e-mails written to DATA_DIR/outbox, oldest first, decoded. */
export function outbox(): string[] {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "", "outbox");
  try {
    return readdirSync(dir)
      .sort()
      .map((f) => decodeQuotedPrintable(readFileSync(path.join(dir, f), "utf8")));
  } catch {
    return [];
  }
}

/**
 * axe scan: no serious or critical violation. Toasts are left out: they are transient and a scan
 * caught mid-animation (partly transparent) would report a false contrast failure.
 */
export async function expectNoSeriousA11yIssues(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).exclude("[data-sonner-toaster]").analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    `axe sur ${page.url()}`,
  ).toEqual([]);
}
