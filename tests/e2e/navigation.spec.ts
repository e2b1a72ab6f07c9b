import type { Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { loginViaApi, signupPatientViaApi } from "./helpers";

const HELP = "Besoin d'aide\u202f?";

/**
 * Opens the mobile menu, a dialog with this name, and checks its links: each one visible, leading to
 * its path where one is given, and no 'Documents' entry. Returns a function that closes it with
 * Escape, focus back on the button that opened it.
 */
async function openDrawer(page: Page, name: string, links: Record<string, string | null>) {
  const trigger = page.getByRole("button", { name: "Ouvrir le menu" });
  await trigger.click();
  const drawer = page.getByRole("dialog", { name });
  await expect(drawer).toBeVisible();
  for (const [label, href] of Object.entries(links)) {
    const link = drawer.getByRole("link", { name: label, exact: true });
    await expect(link).toBeVisible();
    if (href) await expect(link).toHaveAttribute("href", href);
  }
  await expect(drawer.getByRole("link", { name: "Documents" })).toHaveCount(0);
  return async () => {
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(trigger).toBeFocused();
  };
}

test.describe("menu mobile (375 × 812)", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("le tiroir de l'espace patient s'ouvre, liste les liens et se ferme avec Échap", async ({ page }) => {
    await signupPatientViaApi(page.request, { firstName: "Lou" });
    await page.goto("/patient/messages");
    await expect(page.getByRole("heading", { level: 1, name: "Mes messages" })).toBeVisible();

    const close = await openDrawer(page, "Espace patient", {
      Accueil: null,
      "Mes demandes": "/patient/requests",
      "Déposer un devis": "/patient/upload",
      Messages: null,
      "Rendez-vous": "/patient/appointments",
      Profil: null,
      [HELP]: "/patient/help",
    });
    await expectNoSeriousA11yIssues(page);
    await close();
  });

  test("le tiroir d'un dentiste a ses propositions et ses rendez-vous, pas d'entrée Documents", async ({
    page,
  }) => {
    await loginViaApi(page, DEMO.dentist2);
    await page.goto("/dentist/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: /^Bonjour / })).toBeVisible();

    const close = await openDrawer(page, "Espace dentiste", {
      Accueil: null,
      Messages: null,
      "Mes propositions": "/dentist/offers",
      "Rendez-vous": "/dentist/appointments",
      Profil: null,
      [HELP]: "/dentist/help",
    });
    await close();
  });

  test("le menu mobile du site public s'ouvre et se ferme avec Échap", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Navigation principale" })).toBeHidden();

    const close = await openDrawer(page, "Menu", {
      Accueil: null,
      "Comment ça marche": null,
      FAQ: null,
      Avantages: null,
      Contact: null,
      Connexion: null,
    });
    await close();
  });
});

test.describe("barres des espaces dentiste et patient", () => {
  for (const { area, who, path, title, names } of [
    {
      area: "Espace dentiste",
      who: DEMO.dentist,
      path: "/dentist/appointments",
      title: "Rendez-vous",
      // 'Demandes' carries its count in its name.
      names: ["Accueil", "Messages", "Mes propositions", "Rendez-vous", "Profil"],
    },
    {
      area: "Espace patient",
      who: DEMO.patient,
      path: "/patient/appointments",
      title: "Mes rendez-vous",
      names: ["Accueil", "Mes demandes", "Déposer un devis", "Messages", "Rendez-vous", "Mes avis", "Profil"],
    },
  ]) {
    test(`${area} : à 1024 px et plus les liens tiennent sur une ligne ; en dessous, le tiroir`, async ({
      page,
    }) => {
      await loginViaApi(page, who);
      for (const width of [1024, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
        const nav = page.getByRole("navigation", { name: area, exact: true });
        await expect(nav).toBeVisible();
        const tops = new Set<number>();
        for (const name of names) {
          const link = nav.getByRole("link", { name, exact: true });
          await expect(link).toBeVisible();
          const box = await link.boundingBox();
          tops.add(Math.round(box?.y ?? -1));
          // One line each: no label wraps.
          expect(box?.height ?? 0, `${name} à ${width} px`).toBeLessThan(44);
        }
        expect([...tops], `une seule ligne à ${width} px`).toHaveLength(1);
        await expect(nav.getByRole("link", { name: "Rendez-vous", exact: true })).toHaveAttribute(
          "aria-current",
          "page",
        );
        const header = await page.locator("header > div").evaluate((el) => [el.scrollWidth, el.clientWidth]);
        expect(header[0], `l'en-tête ne déborde pas à ${width} px`).toBeLessThanOrEqual(header[1] ?? 0);
        await expect(page.getByRole("button", { name: "Ouvrir le menu" })).toBeHidden();
      }
      await page.setViewportSize({ width: 800, height: 800 });
      await expect(page.getByRole("navigation", { name: area, exact: true })).toBeHidden();
      await expect(page.getByRole("button", { name: "Ouvrir le menu" })).toBeVisible();
    });
  }
});

test.describe("'Besoin d'aide ?' dans chaque espace, sur ordinateur", () => {
  test("patient et dentiste ont le lien d'aide dans l'en-tête ; l'équipe, qui répond, n'en a pas", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const [who, home, help] of [
      [DEMO.patient, "/patient/dashboard", "/patient/help"],
      [DEMO.dentist, "/dentist/dashboard", "/dentist/help"],
    ] as const) {
      await page.context().clearCookies();
      await loginViaApi(page, who);
      await page.goto(home);
      const link = page.getByRole("banner").getByRole("link", { name: HELP, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute("href", help);
    }
    await page.context().clearCookies();
    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("banner").getByRole("link", { name: "Support" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: HELP, exact: true })).toHaveCount(0);
  });
});

test.describe("page 404", () => {
  test("une adresse inconnue affiche 'Page non trouvée' avec un retour et un lien vers l'accueil", async ({
    page,
  }) => {
    const response = await page.goto("/nimporte-quoi");
    expect(response?.status()).toBe(404);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: "Page non trouvée" })).toBeVisible();
    await expect(main.getByRole("button", { name: "Retour" })).toBeVisible();
    await expect(main.getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");
    await expectNoSeriousA11yIssues(page);
  });

  test("une page de l'application avec un identifiant répond 200, une adresse voisine inconnue 404", async ({
    page,
  }) => {
    expect((await page.request.get("/patient/request/abc")).status()).toBe(200);
    expect((await page.request.get("/faq")).status()).toBe(200);
    const nope = await page.request.get("/patient/nope");
    expect(nope.status()).toBe(404);
    expect(await nope.text()).toContain('<div id="root"');
  });

  test("une route d'API inconnue répond 404 en JSON", async ({ page }) => {
    const response = await page.request.get("/api/nimporte-quoi");
    expect(response.status()).toBe(404);
    expect(response.headers()["content-type"]).toContain("application/json");
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    expect(body.error?.code).toBeTruthy();
    expect(body.error?.message).toBeTruthy();
  });
});
