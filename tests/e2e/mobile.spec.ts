import type { Locator, Page } from "@playwright/test";
import { APP_ROUTE_PATTERNS } from "../../src/shared/routes";
import { DEMO, expect, test } from "./fixtures";
import { fileRequestViaApi, loginViaApi, signupPatientViaApi } from "./helpers";

/**
 * Issue 16, item 4: at 375 px no page scrolls sideways. Every page of the route list the server
 * also uses (src/shared/routes.ts), signed out and in each role, with the demo data; a new route
 * lands here by itself (and fails below until it is given an area and, if needed, an id).
 */
const WIDTH = 375;
test.use({ viewport: { width: WIDTH, height: 740 } });

type Area = "public" | "patient" | "dentist" | "admin";

const SIGNED_OUT_UNDER_AREAS = new Set([
  "/dentist/benefits",
  "/dentist/login",
  "/dentist/signup",
  "/dentist/forgot-password",
  "/admin/login",
  "/admin/forgot-password",
]);

function areaOf(pattern: string): Area {
  if (SIGNED_OUT_UNDER_AREAS.has(pattern)) return "public";
  const first = pattern.split("/")[1];
  return first === "patient" || first === "dentist" || first === "admin" ? first : "public";
}

/** The paths to open for a pattern: ":id" filled from the demo data, "x?" both without and with. */
function pathsOf(pattern: string, ids: Record<string, string>): string[] {
  const fill = (p: string) =>
    p.replace(/:(\w+)\??/g, (_, name: string) => {
      const id = ids[`${pattern}`] ?? ids[name];
      if (!id) throw new Error(`pas d'identifiant de démonstration pour ${pattern}`);
      return id;
    });
  if (/\/:\w+\?$/.test(pattern)) return [pattern.replace(/\/:\w+\?$/, ""), fill(pattern)];
  return [fill(pattern)];
}

/** The elements sticking out on the right, to say what to fix. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const out: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) continue;
      // Only the outermost culprit: skip children of an element already listed.
      const parent = element.parentElement?.getBoundingClientRect();
      if (parent && parent.right > width + 1) continue;
      const name = element.tagName.toLowerCase();
      const cls =
        typeof element.className === "string" ? element.className.split(" ").slice(0, 4).join(".") : "";
      out.push(`${name}${cls ? `.${cls}` : ""} (droite ${Math.round(box.right)} px)`);
    }
    return out.slice(0, 8);
  }, WIDTH);
}

async function checkWidths(page: Page, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    await test.step(path, async () => {
      await page.goto(path);
      // The page's own content first: its title, then no part still loading.
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect
        .soft(
          scrollWidth,
          `${path} défile sur le côté à ${WIDTH} px : ${(await overflowing(page)).join(", ")}`,
        )
        .toBeLessThanOrEqual(WIDTH);
    });
  }
}

const patternsOf = (area: Area) => APP_ROUTE_PATTERNS.filter((pattern) => areaOf(pattern) === area);

test.describe(`mobile : aucune page ne défile sur le côté à ${WIDTH} px`, () => {
  // Independent journeys (each signs in or up on its own), shared between the workers (ADR 028).
  test.describe.configure({ mode: "parallel" });

  test("pages publiques, de connexion et d'inscription (déconnecté)", async ({ page }) => {
    const paths = patternsOf("public").flatMap((pattern) =>
      pattern === "/reset-password" ? ["/reset-password?token=x"] : pathsOf(pattern, {}),
    );
    expect(paths).toContain("/");
    // The measure can fail: a page where something sticks out does scroll sideways (no layout hides it).
    await page.goto("/");
    const widened = await page.evaluate(() => {
      const probe = document.createElement("div");
      probe.style.width = "500px";
      probe.style.height = "1px";
      document.querySelector("main")?.append(probe);
      const width = document.documentElement.scrollWidth;
      probe.remove();
      return width;
    });
    expect(widened).toBeGreaterThan(WIDTH);
    await checkWidths(page, [...paths, "/nimporte-quoi"]);
  });

  test("espace patient (données de démonstration)", async ({ page }) => {
    await loginViaApi(page, DEMO.patient);
    const list = (await (await page.request.get("/api/patient/requests?page_size=50")).json()) as {
      items: { id: string }[];
    };
    const request = list.items[0];
    expect(request, "une demande de démonstration").toBeDefined();
    // Her reviews (issue 36): the invitation's appointment, her published review and its dentist.
    const reviews = (await (await page.request.get("/api/patient/reviews")).json()) as {
      reviews: { id: string; dentist: { id: string } }[];
      invitations: { appointment_id: string }[];
    };
    const review = reviews.reviews[0];
    expect(review, "un avis de démonstration").toBeDefined();
    await checkWidths(
      page,
      patternsOf("patient").flatMap((pattern) =>
        pathsOf(pattern, {
          id: request?.id ?? "",
          appointmentId: reviews.invitations[0]?.appointment_id ?? "",
          "/patient/reviews/:id/edit": review?.id ?? "",
          "/patient/dentists/:id/reviews": review?.dentist.id ?? "",
        }),
      ),
    );
  });

  test("espace dentiste (données de démonstration)", async ({ page }) => {
    await loginViaApi(page, DEMO.dentist);
    const requests = (await (await page.request.get("/api/dentist/requests?page_size=50")).json()) as {
      items: { id: string }[];
    };
    const conversations = (await (await page.request.get("/api/conversations")).json()) as {
      items: { id: string }[];
    };
    const requestId = requests.items[0]?.id;
    const conversationId = conversations.items[0]?.id;
    expect(requestId, "une demande visible par le dentiste de démonstration").toBeDefined();
    expect(conversationId, "une conversation du dentiste de démonstration").toBeDefined();
    await checkWidths(
      page,
      patternsOf("dentist").flatMap((pattern) =>
        pathsOf(pattern, { id: requestId ?? "", "/dentist/messages/:id?": conversationId ?? "" }),
      ),
    );
  });

  test("espace administrateur (données de démonstration)", async ({ page }) => {
    await loginViaApi(page, DEMO.admin);
    await checkWidths(
      page,
      patternsOf("admin").flatMap((pattern) => pathsOf(pattern, {})),
    );
  });
});

test.describe(`mobile : un texte long sans espace se replie à ${WIDTH} px`, () => {
  test("un lien ou un mot géant dans un message, un commentaire de proposition, un nom de patient", async ({
    page,
    browser,
    baseURL,
  }) => {
    const word = "Supercalifragilistique".repeat(8);
    const link = `https://drive.example.com/file/d/${"1AbCdEfGhIjKlMnOpQrStUvWxYz".repeat(4)}/view?usp=sharing`;
    await signupPatientViaApi(page.request, { lastName: "Nomtreslong".repeat(8) });
    const requestId = await fileRequestViaApi(page.request);
    const context = await browser.newContext({ baseURL, viewport: { width: WIDTH, height: 740 } });
    const dentist = await context.newPage();
    await loginViaApi(dentist, DEMO.dentist);
    const offered = await dentist.request.post(`/api/dentist/requests/${requestId}/offers`, {
      data: { amount_cents: 120_000, comment: `Bonjour, ${word}`, lines: [], slots: [] },
    });
    expect(offered.status(), await offered.text()).toBe(201);
    const conversations = (await (await page.request.get("/api/conversations")).json()) as {
      items: { id: string }[];
    };
    const conversationId = conversations.items[0]?.id ?? "";
    expect(conversationId, "la conversation ouverte par la proposition").not.toBe("");
    for (const body of [`Voici ma radio : ${link}`, word, "Et un message court."]) {
      const sent = await page.request.post(`/api/conversations/${conversationId}/messages`, {
        multipart: { body },
      });
      expect(sent.status(), await sent.text()).toBe(201);
    }
    await checkWidths(page, [`/patient/request/${requestId}`, `/patient/messages?c=${conversationId}`]);
    // The thread scrolls on its own: the page does not widen, the thread must not either (each
    // message wraps in its bubble, the short one last included).
    const thread = page.getByRole("region", { name: /^Messages avec / });
    await expect(thread.getByText("Et un message court.")).toBeVisible();
    const widths = await thread.evaluate((element) => [element.scrollWidth, element.clientWidth]);
    expect(widths[0], "le fil des messages défile sur le côté").toBeLessThanOrEqual(widths[1] ?? 0);
    await checkWidths(dentist, [
      `/dentist/quote-request/${requestId}`,
      `/dentist/patient-submission/${requestId}`,
      `/dentist/messages/${conversationId}`,
      "/dentist/quote-requests",
      "/dentist/dashboard",
      "/dentist/offers",
    ]);
    await context.close();
  });
});

test.describe(`mobile : les chiffres clés tiennent deux par ligne à ${WIDTH} px`, () => {
  /** The tops and widths of a group's tiles (its direct children), in page order. */
  async function tiles(group: Locator) {
    await expect(group.locator(":scope > *").first()).toBeVisible();
    return group.locator(":scope > *").evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { top: Math.round(box.top), width: Math.round(box.width) };
      }),
    );
  }

  test("administration : cinq compteurs sur trois lignes, les abonnements sur quatre", async ({ page }) => {
    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/dashboard");
    const counters = await tiles(page.getByRole("region", { name: "Chiffres clés" }));
    expect(counters).toHaveLength(5);
    expect(new Set(counters.map((tile) => tile.top)).size).toBe(3);
    expect(counters[0]?.top).toBe(counters[1]?.top);
    for (const tile of counters) expect(tile.width).toBeLessThan(WIDTH / 2);

    await page.goto("/admin/subscriptions");
    await expect(page.getByText("Revenu mensuel récurrent (HT)")).toBeVisible();
    const subscriptions = await tiles(page.getByRole("region", { name: "Chiffres des abonnements" }));
    expect(subscriptions).toHaveLength(7);
    // The revenue across the row, the six standings two by two.
    expect(subscriptions[0]?.width).toBeGreaterThan(WIDTH / 2);
    expect(new Set(subscriptions.map((tile) => tile.top)).size).toBe(4);
  });
});
