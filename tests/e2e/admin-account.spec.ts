import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { expectPath, loginViaApi } from "./helpers";

test.describe("un administrateur n'est pas un patient", () => {
  test("l'espace patient le renvoie à l'accueil ; « Profil » ouvre son compte d'administration", async ({
    page,
  }) => {
    await loginViaApi(page, DEMO.admin);
    const filed = await page.request.get("/api/patient/requests");
    expect(filed.status()).toBe(403);

    await page.goto("/patient/dashboard");
    await expectPath(page, "/");

    await page.goto("/admin/dashboard");
    await page.getByRole("button", { name: /^Mon compte : / }).click();
    await page.getByRole("menuitem", { name: "Profil" }).click();
    await expectPath(page, "/admin/account");
    await expect(page.getByRole("heading", { level: 1, name: "Mon compte" })).toBeVisible();
    await expect(page.getByText("Administrateur", { exact: true })).toBeVisible();
    await expect(page.getByRole("form", { name: "Changer mon mot de passe" })).toBeVisible();
    await expectNoSeriousA11yIssues(page);
  });
});
