import type { Page } from "@playwright/test";
import { expect, test, uniqueEmail } from "./fixtures";
import { acceptTerms, expectPath, islandHydrated } from "./helpers";

/** Every link of a navigation landmark, as [name, href]. */
async function linksOf(page: Page, landmark: string): Promise<[string, string][]> {
  const nav = page.getByRole("navigation", { name: landmark });
  await expect(nav).toBeVisible();
  const links = nav.getByRole("link");
  const result: [string, string][] = [];
  for (let i = 0; i < (await links.count()); i += 1) {
    const link = links.nth(i);
    result.push([((await link.textContent()) ?? "").trim(), (await link.getAttribute("href")) ?? ""]);
  }
  return result;
}

/** Clicks the link and checks the page reached is a real page (an h1 that is not the 404's). */
async function expectRealPage(page: Page) {
  const h1 = page.getByRole("heading", { level: 1 });
  await expect(h1).toBeVisible();
  await expect(h1).not.toHaveText("Page non trouvée");
}

test.describe("site public : navigation", () => {
  test("chaque lien de la navigation et du pied de page mène à une vraie page", async ({ page }) => {
    await page.goto("/");
    await expectRealPage(page);
    const nav = await linksOf(page, "Navigation principale");
    const footer = await linksOf(page, "Liens du pied de page");
    expect(nav.map(([, href]) => href)).toEqual([
      "/",
      "/how-it-works",
      "/faq",
      "/dentist/benefits",
      "/contact",
      "/login",
    ]);
    expect(footer.map(([, href]) => href)).toEqual(
      expect.arrayContaining([
        "/",
        "/how-it-works",
        "/upload-devis",
        "/faq",
        "/dentist/signup",
        "/dentist/benefits",
        "/login",
        "/signup",
        "/contact",
        "/privacy",
        "/terms",
      ]),
    );
    for (const [landmark, links] of [
      ["Navigation principale", nav],
      ["Liens du pied de page", footer],
    ] as const) {
      for (const [name, href] of links) {
        await test.step(`${landmark} → ${name} (${href})`, async () => {
          await page.goto("/faq");
          await expectRealPage(page);
          await page
            .getByRole("navigation", { name: landmark })
            .getByRole("link", { name, exact: true })
            .click();
          await expectPath(page, href);
          await expectRealPage(page);
        });
      }
    }
  });

  test("les boutons de la page d'accueil mènent à de vraies pages", async ({ page }) => {
    const targets = [
      ["Commencer maintenant", "/signup", "Créer un compte patient"],
      ["Discuter avec nous", "/contact", "Contact"],
      ["Voir un exemple", "/how-it-works", "Comment ça marche"],
      ["Prendre rendez-vous", "/upload-devis", "Déposer un devis"],
    ] as const;
    for (const [name, path, heading] of targets) {
      await test.step(name, async () => {
        await page.goto("/");
        await page.getByRole("main").getByRole("link", { name, exact: true }).click();
        await expectPath(page, path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      });
    }
    // 'Voir un exemple' lands on the illustrative comparison.
    await page.goto("/");
    await page.getByRole("link", { name: "Voir un exemple" }).click();
    await expect(page).toHaveURL(/\/how-it-works#exemple$/);
    await expect(page.locator("#exemple").getByText("Exemple illustratif", { exact: true })).toBeInViewport();
  });

  test.describe("menu mobile (375 × 812)", () => {
    test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

    test("chaque lien du menu mobile mène à une vraie page, au toucher comme au clavier", async ({
      page,
    }) => {
      const names = ["Accueil", "Comment ça marche", "FAQ", "Avantages", "Contact", "Connexion"];
      for (const name of names) {
        await test.step(name, async () => {
          await page.goto("/terms");
          await expectRealPage(page);
          await page.getByRole("button", { name: "Ouvrir le menu" }).tap();
          const drawer = page.getByRole("dialog", { name: "Menu" });
          await drawer.getByRole("link", { name, exact: true }).tap();
          await expect(drawer).toBeHidden();
          await expectRealPage(page);
        });
      }
      await page.goto("/terms");
      await expectRealPage(page);
      const trigger = page.getByRole("button", { name: "Ouvrir le menu" });
      await trigger.focus();
      await page.keyboard.press("Enter");
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await expect(drawer).toBeVisible();
      const link = drawer.getByRole("link", { name: "FAQ", exact: true });
      await link.focus();
      await page.keyboard.press("Enter");
      await expectPath(page, "/faq");
      await expect(page.getByRole("heading", { level: 1, name: "Questions fréquentes" })).toBeVisible();
    });

    test("le bouton 'Déposer votre devis' est visible sans défiler", async ({ page }) => {
      await page.goto("/");
      await expect(
        page.getByRole("main").getByRole("link", { name: "Déposer votre devis" }),
      ).toBeInViewport();
    });
  });
});

test.describe("site public : contenus", () => {
  test("la FAQ n'ouvre qu'une question à la fois et se referme", async ({ page }) => {
    await page.goto("/faq");
    const main = page.getByRole("main");
    const first = main.locator("details", { hasText: "Qui peut utiliser le service ?" });
    const second = main.locator("details", { hasText: "Le service est-il gratuit ?" });
    await expect(main.locator("details > summary")).toHaveCount(6);
    await expect(main.locator("details[open]")).toHaveCount(0);
    await first.locator("summary").click();
    await expect(first).toHaveAttribute("open", "");
    await expect(page.getByText("Côté professionnels, seuls les chirurgiens-dentistes")).toBeVisible();
    await second.locator("summary").click();
    await expect(second).toHaveAttribute("open", "");
    await expect(first).not.toHaveAttribute("open");
    await expect(page.getByText("Côté professionnels, seuls les chirurgiens-dentistes")).toBeHidden();
    await expect(page.getByText(/Les dentistes paient un abonnement, mensuel ou annuel/)).toBeVisible();
    // By keyboard too: the summary is focusable and toggles with Enter.
    await second.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(second).not.toHaveAttribute("open");
    await expect(page.getByText(/Les dentistes paient un abonnement, mensuel ou annuel/)).toBeHidden();
  });

  test("sans JavaScript (avant l'hydratation), la FAQ s'ouvre et le carrousel change de page", async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      const page = await context.newPage();
      await page.goto("/faq");
      const question = page.getByRole("main").locator("details", { hasText: "Le service est-il gratuit ?" });
      await expect(page.getByText(/Les dentistes paient un abonnement, mensuel ou annuel/)).toBeHidden();
      await question.locator("summary").click();
      await expect(question).toHaveAttribute("open", "");
      await expect(page.getByText(/Les dentistes paient un abonnement, mensuel ou annuel/)).toBeVisible();

      await page.goto("/");
      const carousel = page.getByRole("region", { name: "Témoignages" });
      const first = carousel.getByRole("group", { name: "1 sur 2" });
      const second = carousel.getByRole("group", { name: "2 sur 2" });
      await expect(first).toContainText("Sophie L., Lyon");
      await expect(second).toContainText("Julien M., Bordeaux");
      await first.scrollIntoViewIfNeeded();
      await expect(second).not.toBeInViewport();
      await carousel.getByRole("link", { name: "Page suivante" }).click();
      await expect(second).toBeInViewport();
      await expect(first).not.toBeInViewport();
      await carousel.getByRole("link", { name: "Page 1" }).click();
      await expect(first).toBeInViewport();
      await expect(second).not.toBeInViewport();
    } finally {
      await context.close();
    }
  });

  test("la page d'accueil et ses îlots, formulaire de contact compris, n'apportent pas zod", async ({
    page,
  }) => {
    // Every script the page loads, kept from the start, the islands under the fold hydrated (brought
    // into view). zod (~25 KB compressed, costly to evaluate) is for the app's forms: the
    // pre-rendered pages' islands show the server's answers (ADR 053, its addendum).
    const scripts = new Map<string, Promise<string>>();
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.set(response.url(), response.text());
    });
    await page.goto("/");
    await islandHydrated(page, "testimonials");
    await islandHydrated(page, "contact-form");
    await expect(page.getByRole("form", { name: "Formulaire de contact" })).toBeVisible();
    const names = [...scripts.keys()].map((url) => new URL(url).pathname);
    expect(
      names.some((name) => /\/ContactForm-[\w-]+\.js$/.test(name)),
      names.join(", "),
    ).toBe(true);
    // zod 4 keeps its internals under `_zod` on every schema, a name no minifier renames.
    const withZod: string[] = [];
    for (const [url, text] of scripts) if ((await text).includes("_zod")) withZod.push(new URL(url).pathname);
    expect(withZod).toEqual([]);
  });

  test("« Avantages » et les conditions montrent les tarifs que le serveur facture, une fois la page hydratée", async ({
    page,
    request,
  }) => {
    // The pre-rendered HTML writes no price (it would be the build's, not the server's).
    const html = await (await request.get("/dentist/benefits")).text();
    expect(html).toContain("Chargement des tarifs");
    expect(html).not.toContain("€");
    await page.goto("/dentist/benefits");
    const tarifs = page.locator("section", { has: page.getByRole("heading", { level: 2, name: "Tarifs" }) });
    // The server's default prices (PRICE_MONTHLY_HT 89, PRICE_YEARLY_HT 890), TVA 20 %.
    await expect(tarifs.getByRole("listitem").filter({ hasText: "Mensuel" })).toContainText(
      "106,80 € TTC par mois",
    );
    await expect(tarifs.getByRole("listitem").filter({ hasText: "Annuel" })).toContainText(
      "890,00 € HT + 178,00 € de TVA (20 %), soit 74,17 € HT par mois",
    );
    await expect(tarifs.getByText("Chargement des tarifs")).toHaveCount(0);
    await page.goto("/terms");
    await expect(page.getByText("Tarifs en vigueur :")).toContainText(
      "Mensuel : 89,00 € HT par mois (106,80 € TTC)",
    );
  });

  test("la page d'accueil montre les chiffres mesurés sans créer de formateur Intl", async ({ page }) => {
    // The first Intl formatter a page makes costs it tens of milliseconds of main thread (ICU's data
    // for the locale), four times that on Lighthouse's mobile: the server writes the figures (ADR 071).
    // Every way a page asks ICU to format is counted from before the page's first script.
    await page.addInitScript(() => {
      const asked: string[] = [];
      (window as unknown as { intlAsked: string[] }).intlAsked = asked;
      const intl = Intl as unknown as Record<string, object>;
      for (const name of Object.getOwnPropertyNames(Intl)) {
        const original = intl[name];
        if (typeof original !== "function") continue;
        intl[name] = new Proxy(original, {
          construct: (target, args) => {
            asked.push(`Intl.${name}`);
            return Reflect.construct(target as new (...a: unknown[]) => object, args);
          },
          apply: (target, self, args) => {
            asked.push(`Intl.${name}`);
            return Reflect.apply(target as (...a: unknown[]) => unknown, self, args);
          },
        });
      }
      const methods: [object, string, string][] = [
        [Number.prototype, "toLocaleString", "Number"],
        [BigInt.prototype, "toLocaleString", "BigInt"],
        [Array.prototype, "toLocaleString", "Array"],
        [Date.prototype, "toLocaleString", "Date"],
        [Date.prototype, "toLocaleDateString", "Date"],
        [Date.prototype, "toLocaleTimeString", "Date"],
        [String.prototype, "localeCompare", "String"],
      ];
      for (const [prototype, method, owner] of methods) {
        const original = Reflect.get(prototype, method) as (...a: unknown[]) => unknown;
        Object.defineProperty(prototype, method, {
          configurable: true,
          writable: true,
          value(this: unknown, ...args: unknown[]) {
            asked.push(`${owner}.${method}`);
            return original.apply(this, args);
          },
        });
      }
    });
    const stats = await (await page.request.get("/api/public/stats")).json();
    // The demo data measures every figure: each is shown, as the server wrote it.
    expect(Object.values(stats.text).every((text) => typeof text === "string")).toBe(true);
    await page.goto("/");
    for (const [id, text] of Object.entries(stats.text)) {
      await expect(page.locator(`[data-figure="${id}"]`)).toHaveText(text as string);
    }
    // The islands hydrated when they come near the screen (the testimonials, the contact form) too.
    await islandHydrated(page, "testimonials");
    await islandHydrated(page, "contact-form");
    await expect(page.locator("html")).toHaveAttribute("data-ready", "true");
    expect(await page.evaluate(() => (window as unknown as { intlAsked: string[] }).intlAsked)).toEqual([]);
  });

  test("le carrousel des témoignages avance, recule et boucle", async ({ page }) => {
    await page.goto("/");
    await islandHydrated(page, "testimonials");
    const carousel = page.getByRole("region", { name: "Témoignages" });
    await expect(carousel).toHaveAttribute("aria-roledescription", "carrousel");
    await expect(carousel.getByRole("group", { name: "1 sur 2" })).toContainText("Sophie L., Lyon");
    await carousel.getByRole("button", { name: "Page suivante" }).click();
    await expect(carousel.getByRole("group", { name: "2 sur 2" })).toContainText("Julien M., Bordeaux");
    await expect(carousel.getByRole("img", { name: "Note : 4 sur 5" })).toBeVisible();
    await carousel.getByRole("button", { name: "Page suivante" }).click();
    await expect(carousel.getByRole("group", { name: "1 sur 2" })).toContainText("Sophie L., Lyon");
    await carousel.getByRole("button", { name: "Page précédente" }).click();
    await expect(carousel.getByRole("group", { name: "2 sur 2" })).toBeVisible();
    await carousel.getByRole("button", { name: "Page 1" }).click();
    await expect(carousel.getByRole("group", { name: "1 sur 2" })).toBeVisible();
  });

  test("la vidéo de présentation démarre seule, en sourdine et en boucle, et se met en pause", async ({
    page,
  }) => {
    await page.goto("/");
    const video = page.locator("video");
    await expect(video).toHaveAttribute("poster", "/media/hero-poster.webp");
    // The poster is the page's largest paint: its pre-rendered head asks for it first, at high
    // priority (ADR 053); the other public pages do not.
    const preload = page.locator('head link[rel="preload"][as="image"]');
    await expect(preload).toHaveAttribute("href", "/media/hero-poster.webp");
    await expect(preload).toHaveAttribute("fetchpriority", "high");
    expect(
      await page.evaluate(() => {
        const head = [...document.head.children];
        const first = (selector: string) => head.findIndex((element) => element.matches(selector));
        return first('link[rel="preload"][as="image"]') < first('link[rel="stylesheet"]');
      }),
    ).toBe(true);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.muted && v.loop))
      .toBe(true);
    await page.getByRole("button", { name: "Mettre en pause la vidéo" }).click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await expect(page.getByRole("button", { name: "Lire la vidéo" })).toBeVisible();
    await page.goto("/faq");
    await expect(page.locator('head link[rel="preload"][as="image"]')).toHaveCount(0);
  });

  test("la police du texte est demandée dès l'en-tête des pages pré-rendues, une seule fois", async ({
    page,
  }) => {
    const fonts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "font") fonts.push(new URL(request.url()).pathname);
    });
    for (const path of ["/", "/faq"]) {
      fonts.length = 0;
      await page.goto(path);
      const preload = page.locator('head link[rel="preload"][as="font"]');
      await expect(preload).toHaveAttribute("href", /^\/assets\/inter-latin-wght-normal-[\w-]+\.woff2$/);
      await expect(preload).toHaveAttribute("crossorigin", "");
      expect(
        await page.evaluate(() => document.fonts.ready.then((set) => set.check('16px "Inter Variable"'))),
      ).toBe(true);
      // The stylesheet's font is the one asked for in the head: fetched once, not twice.
      expect(fonts).toEqual([await preload.getAttribute("href")]);
    }
  });

  test.describe("vidéo indisponible", () => {
    // The test cuts the video's requests itself: Chromium logs each one as a failed load.
    test.use({ allowedBrowserErrors: [/^Failed to load resource: net::ERR_FAILED$/] });

    test("si la vidéo ne peut pas être chargée, le message de remplacement s'affiche", async ({ page }) => {
      await page.route("**/media/hero.*", (route) => route.abort());
      await page.goto("/");
      await expect(page.getByText("La vidéo de présentation ne peut pas être chargée.")).toBeVisible();
    });
  });

  test.describe("mouvement réduit", () => {
    test.use({ reducedMotion: "reduce" });

    test("la vidéo ne démarre pas seule ; le bouton 'Lire la vidéo' la lance", async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.goto("/");
      const video = page.locator("video");
      await expect(page.getByRole("button", { name: "Lire la vidéo" })).toBeVisible();
      await page.waitForTimeout(500);
      expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
      await page.getByRole("button", { name: "Lire la vidéo" }).click();
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
    });
  });

  test("chaque page publique a son titre, sa description, son URL canonique et ses balises Open Graph", async ({
    page,
    baseURL,
  }) => {
    for (const [path, title] of [
      ["/", "Sourio — comparez vos devis dentaires"],
      ["/how-it-works", "Comment ça marche — Sourio"],
      ["/faq", "Questions fréquentes — Sourio"],
      ["/dentist/benefits", "Avantages — Sourio"],
      ["/privacy", "Politique de confidentialité — Sourio"],
      ["/terms", "Conditions d'utilisation — Sourio"],
      ["/contact", "Contact — Sourio"],
      ["/upload-devis", "Déposer un devis — Sourio"],
    ] as const) {
      await test.step(path, async () => {
        await page.goto(`${path}?utm=x`);
        await expect(page).toHaveTitle(title);
        const origin = new URL(baseURL ?? "").origin;
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${origin}${path}`);
        await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${origin}${path}`);
        await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", title);
        await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
          "content",
          `${origin}/media/hero-poster.webp`,
        );
        expect(await page.locator('meta[name="description"]').getAttribute("content")).toBeTruthy();
        expect(await page.locator('meta[property="og:description"]').getAttribute("content")).toBeTruthy();
      });
    }
  });
});

test.describe("site public : dépôt d'un devis", () => {
  test("'Déposer votre devis' fait passer un visiteur par l'inscription puis le ramène au dépôt", async ({
    page,
  }) => {
    await page.goto("/");
    await page.getByRole("main").getByRole("link", { name: "Déposer votre devis" }).click();
    await expectPath(page, "/signup");
    await expect(page).toHaveURL((url) => url.searchParams.get("next") === "/patient/upload");
    // A new patient signs up from there (via the sign-up link keeping ?next= or /upload-devis).
    await page.goto("/upload-devis");
    await page.getByRole("main").getByRole("link", { name: "Créer un compte" }).click();
    await expectPath(page, "/signup");
    await expect(page).toHaveURL((url) => url.searchParams.get("next") === "/patient/upload");
    await page.getByLabel(/^Prénom/).fill("Inès");
    await page.getByLabel(/^Nom/).fill("Moreau");
    await page.getByLabel(/^E-mail/).fill(uniqueEmail("devis"));
    await page.getByLabel(/^Mot de passe/).fill("mot-de-passe-1");
    await acceptTerms(page);
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await expectPath(page, "/patient/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Téléverser des documents" })).toBeVisible();
  });

  test("'J'ai déjà un compte' revient au dépôt après la connexion", async ({ page, request }) => {
    const email = uniqueEmail("devis");
    const created = await request.post("/api/account/signup", {
      data: {
        role: "patient",
        first_name: "Léa",
        last_name: "Roux",
        email,
        password: "mot-de-passe-1",
        accept_terms: true,
      },
    });
    expect(created.status()).toBe(201);
    await page.goto("/upload-devis");
    await page.getByRole("main").getByRole("link", { name: "J'ai déjà un compte" }).click();
    await expectPath(page, "/login");
    await page.getByLabel(/^E-mail/).fill(email);
    await page.getByLabel(/^Mot de passe/).fill("mot-de-passe-1");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expectPath(page, "/patient/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Téléverser des documents" })).toBeVisible();
  });
});
