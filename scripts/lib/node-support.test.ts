import { describe, expect, it } from "vitest";
import { nodeSupportNotice, OLDEST_SUPPORTED } from "./node-support.mjs";

describe("the Node.js notice of npm start", () => {
  it("names the version out of support and what to install, in one French line", () => {
    const notice = nodeSupportNotice("v20.20.2");
    expect(notice).toBe(
      "Node.js 20.20.2 n'est plus pris en charge : installez Node.js 24 (LTS, voir .nvmrc) ou 22.13 au moins ; Sourio démarre quand même.",
    );
    expect(nodeSupportNotice("v22.12.0")).toContain("Node.js 22.12.0 n'est plus pris en charge");
    expect(nodeSupportNotice("v18.20.8")).not.toBeNull();
  });

  it("says nothing on a supported line (package.json's engines: >=22.13)", () => {
    for (const version of ["v22.13.0", "v22.23.3", "v23.1.0", "v24.0.0", "v24.21.0", "v26.0.0"])
      expect(nodeSupportNotice(version)).toBeNull();
  });
});

describe("the supported Node.js lines, written once each", () => {
  it("package.json's engines and .nvmrc say what the notice says", async () => {
    const { readFileSync } = await import("node:fs");
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(pkg.engines.node).toBe(`>=${OLDEST_SUPPORTED.join(".")}`);
    expect(readFileSync(new URL("../../.nvmrc", import.meta.url), "utf8").trim()).toBe("24");
    expect(readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8")).toContain(
      "ARG NODE_IMAGE=node:24-",
    );
  });
});
