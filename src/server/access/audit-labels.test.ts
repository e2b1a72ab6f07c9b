import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appPerFile } from "../testing/harness";
import { api, patient, signInAdmin } from "../testing/people";
import { AUDIT_LABELS } from "./audit";

/**
 * Every audit action the server writes has its French label in the admin's audit list
 * (AUDIT_LABELS, access/audit.ts), so none is shown as its code (issue 32: `account.erased`).
 */

const ctx = appPerFile();
const { get, post } = api(ctx);

/** The server's source files, tests excluded. */
function serverSources(): string[] {
  const root = path.resolve(__dirname, "..");
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.includes(".test."))
    .map((e) => path.join(e.parentPath, e.name));
}

describe("audit labels", () => {
  it("labels every action string of the audit's namespaces found in the server's code", () => {
    const namespaces = new Set(Object.keys(AUDIT_LABELS).map((action) => action.split(".")[0]));
    const found = new Set<string>();
    for (const file of serverSources())
      for (const [, action, namespace] of readFileSync(file, "utf8").matchAll(
        /["'`](([a-z_]+)\.[a-z_]+)["'`]/g,
      ))
        if (namespace && namespaces.has(namespace) && action) found.add(action);
    expect(found.size).toBeGreaterThan(10);
    expect([...found].filter((action) => !(action in AUDIT_LABELS))).toEqual([]);
  });

  it("gives each action a French sentence, never its code", () => {
    for (const [action, label] of Object.entries(AUDIT_LABELS)) {
      expect(label, action).not.toBe(action);
      expect(label, action).toMatch(/^[A-ZÉ][^.]*[a-zé)]$/u);
    }
  });

  it("shows an erased account in French in the admin's audit list", async () => {
    const admin = await signInAdmin(ctx.app);
    const person = await patient(ctx.app);
    const erased = await post("/api/account/delete", { password: "Sourire-Sain-2026" }, person);
    expect(erased.statusCode, erased.body).toBe(200);
    const list = await get("/api/admin/audit?page_size=50", admin);
    expect(list.statusCode, list.body).toBe(200);
    const entry = list.json().items.find((e: { action: string }) => e.action === "account.erased");
    expect(entry).toMatchObject({ action: "account.erased", label: "Compte supprimé", type: "account" });
    for (const item of list.json().items as Array<{ action: string; label: string }>)
      expect(item.label, item.action).not.toBe(item.action);
  });
});
