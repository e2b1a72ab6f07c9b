import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { readOutbox } from "../../src/server/testing/mail";
import { startServer } from "./server";

export const DEMO_PASSWORD = "sourio-demo";
export const DEMO = {
  admin: "admin@demo.sourio.fr",
  patient: "patient@demo.sourio.fr",
  dentist: "dr.martin@demo.sourio.fr",
  dentist2: "dr.leroy@demo.sourio.fr",
  unverifiedDentist: "dr.bernard@demo.sourio.fr",
} as const;

/**
 * What the browser may log as an error without failing a journey: a refused call (4xx) is the app
 * doing its job (the session check of a signed-out visitor, a wrong password, a 404 page), and
 * Chromium reports every one as "Failed to load resource".
 */
const EXPECTED_BROWSER_ERRORS = [/^Failed to load resource: the server responded with a status of 4\d\d\b/];

/**
 * This worker's server (tests/e2e/server.ts), started by the worker-scoped `e2eServer` fixture below:
 * the helpers that read its outbox run in the same worker process.
 */
export function e2eServer(): { baseUrl: string; dataDir: string } {
  const baseUrl = process.env.E2E_BASE_URL;
  const dataDir = process.env.E2E_DATA_DIR;
  if (!baseUrl || !dataDir) throw new Error("E2E_BASE_URL manquant : lancez les tests avec npm test");
  return { baseUrl, dataDir };
}

/**
 * `page.goto` waits until the page has rendered or hydrated
 * in the browser (<html data-ready>): public pages arrive pre-rendered, and a click before
 * hydration would do nothing. A journey fails when its page throws (`pageerror`) or logs an error
 * other than a refused call: the defect is fixed, or the journey announces it with
 * `test.use({ allowedBrowserErrors: [/…/] })` (ADR 028).
 */
export const test = base.extend<
  { allowedBrowserErrors: RegExp[]; other: Page },
  { e2eServer: { baseUrl: string; dataDir: string } }
>({
  /**
   * One server per worker (ADR 028), started with the worker and stopped with it (ADR 054): a worker's
   * journeys run one after the other against their own server, database, outbox and clock, and never
   * see what another worker's journeys create or move (the admin's lists, the demo accounts, the clock
   * of the reminder journey). Only the workers a run uses start one; a worker started again after a
   * failure gets a fresh server. Starting (migrations, the demo data) takes seconds alone, minutes on
   * a loaded machine: the fixture has the journeys' own generous limit.
   */
  e2eServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures need the destructuring pattern.
    async ({}, use) => {
      const server = await startServer();
      process.env.E2E_BASE_URL = server.baseUrl;
      process.env.E2E_DATA_DIR = server.dataDir;
      try {
        await use({ baseUrl: server.baseUrl, dataDir: server.dataDir });
      } finally {
        await server.stop();
      }
    },
    { scope: "worker", auto: true, timeout: 300_000 },
  ],
  allowedBrowserErrors: [[], { option: true }],
  page: async ({ page, allowedBrowserErrors }, use) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`exception : ${error.message}`));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const text = message.text();
      if ([...EXPECTED_BROWSER_ERRORS, ...allowedBrowserErrors].some((pattern) => pattern.test(text))) return;
      const { url, lineNumber } = message.location();
      errors.push(`console.error : ${text}${url ? ` (${url}:${lineNumber})` : ""}`);
    });
    leaveAsConfirmed(page);
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      return response;
    };
    await use(page);
    expect(errors, "erreurs dans le navigateur pendant le parcours").toEqual([]);
  },
  /**
   * A second person's page, in a browser context of its own (own cookies), closed after the journey.
   * Its `goto` does not wait for the app: `open` (helpers.ts) does.
   */
  other: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
    const page = await context.newPage();
    leaveAsConfirmed(page);
    await use(page);
    await context.close();
  },
  baseURL: async ({ e2eServer }, use) => {
    await use(e2eServer.baseUrl);
  },
});
export { expect };

/**
 * A page with a form begun asks before it is left (useLeaveWarning): the journeys leave, as a person
 * who confirms would. Any other dialog is dismissed, as Playwright does when nobody listens.
 */
export function leaveAsConfirmed(page: Page): void {
  page.on("dialog", (dialog) => void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()));
}

let counter = 0;
export function uniqueEmail(prefix = "e2e"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** The e-mails written to this worker's DATA_DIR/outbox, oldest first, decoded. */
export function outbox(): string[] {
  return readOutbox(e2eServer().dataDir);
}

/**
 * axe scan: no serious or critical violation. Toasts are left out: they are transient and a scan
 * caught mid-animation (partly transparent) would report a false contrast failure.
 * Every rule runs, as before; two settings only spare work whose result is never read (ADR 032):
 * `axe.run` in the page itself (legacy mode) rather than a partial run per frame finished in a blank
 * page opened for each scan (the app has no frame), and the nodes of passed or inapplicable rules
 * left unlisted (`resultTypes`: only violations are read here).
 */
export async function expectNoSeriousA11yIssues(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .exclude("[data-sonner-toaster]")
    .analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    `axe sur ${page.url()}`,
  ).toEqual([]);
}
