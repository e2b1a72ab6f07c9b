import { expect, test } from "./fixtures";

test("la politique de sécurité du contenu est servie et n'est jamais violée", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });

  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  const csp = response?.headers()["content-security-policy"] ?? "";
  const scriptSrc = csp
    .split(";")
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith("script-src "));
  expect(scriptSrc, `script-src dans « ${csp} »`).toBe("script-src 'self'");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Connexion" })).toBeVisible();
  await expect(page.getByLabel(/^E-mail/)).toBeVisible();

  expect(violations).toEqual([]);
});
