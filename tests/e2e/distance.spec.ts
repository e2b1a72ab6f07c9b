import type { Page } from "@playwright/test";
import { expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { signupPatientViaApi, toast } from "./helpers";

/**
 * Issue 16 item 3 in a real browser (ADR 019): a new patient gives a postal code on 'Mon profil' (an
 * unknown one is refused beside the field), then sees each dentist's commune and distance in the recipient
 * chooser, in the neutral order by name, and picks 'Les plus proches'. The demo dentists are in Paris
 * (75009) and Bordeaux (33000); the patient lives in Bordeaux.
 */

/** The names of the chooser's options, in order. */
async function recipientOptions(page: Page): Promise<string[]> {
  await page.getByRole("combobox", { name: "Dentiste destinataire" }).click();
  const options = page.getByRole("listbox").getByRole("option");
  await expect(options.filter({ hasText: "Sophie Leroy" })).toHaveCount(1);
  const names = await options.allTextContents();
  await page.keyboard.press("Escape");
  return names;
}

test.describe("distance aux dentistes (issue 16)", () => {
  test("le patient donne son code postal, voit les distances et choisit « Les plus proches »", async ({
    page,
  }) => {
    await signupPatientViaApi(page.request, { firstName: "Inès", lastName: "Girard" });

    await page.goto("/patient/profile");
    const postalCode = page.getByRole("textbox", { name: "Code postal (optionnel)" });
    await postalCode.fill("99999");
    await page.getByRole("button", { name: "Enregistrer" }).first().click();
    await expect(
      page.getByText("Ce code postal ne correspond à aucune commune française.").first(),
    ).toBeVisible();
    await postalCode.fill("33000");
    await page.getByRole("button", { name: "Enregistrer" }).first().click();
    await expect(toast(page, "Profil mis à jour avec succès")).toBeVisible();

    await page.goto("/patient/upload");
    const sort = page.getByRole("group", { name: "Trier les dentistes" });
    await expect(sort.getByRole("radio", { name: "Ordre alphabétique" })).toBeChecked();
    await expect(page.getByText("Renseignez votre code postal", { exact: false })).toHaveCount(0);

    // The neutral order: by name, Julien Martin before Sophie Leroy, each with commune and distance.
    let names = await recipientOptions(page);
    const martin = names.findIndex((n) => n.includes("Julien Martin"));
    const leroy = names.findIndex((n) => n.includes("Sophie Leroy"));
    expect(names[martin]).toMatch(/^Dr Julien Martin — Paris · \d{3}\u00a0km$/);
    expect(names[leroy]).toBe("Dr Sophie Leroy — Bordeaux · <\u00a01\u00a0km");
    expect(martin).toBeLessThan(leroy);
    await expectNoSeriousA11yIssues(page);

    // 'Les plus proches', picked by the patient: the Bordeaux dentist comes first.
    await sort.getByRole("radio", { name: "Les plus proches" }).check();
    await expect(sort.getByRole("radio", { name: "Les plus proches" })).toBeChecked();
    await expect(async () => {
      names = await recipientOptions(page);
      expect(names.findIndex((n) => n.includes("Sophie Leroy"))).toBeLessThan(
        names.findIndex((n) => n.includes("Julien Martin")),
      );
    }).toPass();
    expect(names[1]).toBe("Dr Sophie Leroy — Bordeaux · <\u00a01\u00a0km");

    // On a phone too, nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "pas de défilement horizontal à 375 px").toBeLessThanOrEqual(1);
    await expectNoSeriousA11yIssues(page);
  });
});
