import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ALLOWLIST,
  type AllowlistEntry,
  checkBoundaries,
  floors,
  readImports,
  serverGraph,
  type Violation,
} from "./check-boundaries.mjs";

// The import-graph check of `npm run lint` (ADR 029) on small trees written for each case: a
// clean tree passes, and each rule reports the file, the line and the import that break it.
const trees: string[] = [];
afterAll(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "sourio-boundaries-"));
  trees.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** A small house that keeps every rule: each case adds one file or one import to it. */
const CLEAN: Record<string, string> = {
  "src/shared/schemas/offers.ts": "export const offer = 1;\n",
  "src/shared/forms/offerForm.ts": 'import { offer } from "../schemas/offers";\nexport const form = offer;\n',
  "src/client/lib/api.ts":
    'import { offer } from "../../shared/schemas/offers";\nexport const api = offer;\n',
  "src/client/components/ui/Button.tsx": "export const Button = 1;\n",
  "src/client/components/chat/index.tsx": 'import { Part } from "./Part";\nexport const Chat = Part;\n',
  "src/client/components/chat/Part.tsx":
    'import { Button } from "../ui/Button";\nexport const Part = Button;\n',
  "src/client/features/dentist/pages.tsx":
    'export const ProposalPage = () => import("./ProposalPage");\nexport { OffersPage } from "./offers/OffersPage";\n',
  "src/client/features/dentist/ProposalPage/index.tsx":
    'import { Form } from "./Form";\nimport { Chat } from "../../../components/chat";\nexport default [Form, Chat];\n',
  "src/client/features/dentist/ProposalPage/Form.tsx":
    'import { form } from "../../../../shared/forms/offerForm";\nimport { api } from "../../../lib/api";\nexport const Form = [form, api];\n',
  "src/client/features/dentist/offers/OffersPage.tsx":
    'import { Row } from "./Row";\nexport const OffersPage = Row;\n',
  "src/client/features/dentist/offers/Row.tsx": "export const Row = 1;\n",
  "src/client/features/dentist/proposal.test.tsx":
    'import { Form } from "./ProposalPage/Form";\nimport { Row } from "./offers/Row";\nexport const t = [Form, Row];\n',
  "src/client/features/patient/pages.tsx":
    'import { Chat } from "../../components/chat/index";\nexport const P = Chat;\n',
  "src/client/app/routes.tsx":
    'const dentist = () => import("../features/dentist/pages");\nconst patient = () => import("../features/patient/pages");\nexport const routes = [dentist, patient];\n',
  "src/server/config.ts": "export const config = 1;\n",
  "src/server/errors.ts": "export class AppError extends Error {}\n",
  "src/server/db/index.ts": 'import { config } from "../config";\nexport const db = config;\n',
  "src/server/access/actor.ts": 'import { db } from "../db/index";\nexport const actor = db;\n',
  "src/server/modules/quotes/quotes.repo.ts":
    'import { actor } from "../../access/actor";\nexport const q = actor;\n',
  "src/server/modules/quotes/quotes.service.ts":
    'import { q } from "./quotes.repo";\nexport const readQuote = q;\n',
  "src/server/modules/quotes/quotes.routes.ts":
    'import { readQuote } from "./quotes.service";\nimport { offer } from "../../../shared/schemas/offers";\nexport const quotesRoutes = [readQuote, offer];\n',
  "src/server/modules/requests/requests.service.ts":
    'import { q } from "../quotes/quotes.repo";\nimport type { AppError } from "../../errors";\nexport const r = q;\nexport type E = AppError;\n',
  "src/server/modules/requests/requests.routes.ts":
    'import { r } from "./requests.service";\nimport { readQuote } from "../quotes/quotes.service";\nexport const requestsRoutes = [r, readQuote];\n',
  "src/server/modules/requests/requests.test.ts":
    'import { requestsRoutes } from "./requests.routes";\nimport { quotesRoutes } from "../quotes/quotes.routes";\nexport const t = [requestsRoutes, quotesRoutes];\n',
  "src/server/app.ts":
    'import { quotesRoutes } from "./modules/quotes/quotes.routes";\nimport { requestsRoutes } from "./modules/requests/requests.routes";\nexport const app = [quotesRoutes, requestsRoutes];\n',
  "src/server/server.ts": 'import { app } from "./app";\nexport default app;\n',
  "scripts/seed.ts":
    'import { r } from "../src/server/modules/requests/requests.service";\nexport default r;\n',
};

function check(extra: Record<string, string>, allowlist: AllowlistEntry[] = []) {
  return checkBoundaries({ root: tree({ ...CLEAN, ...extra }), allowlist });
}

/** The one violation the tree with `extra` has. */
function only(extra: Record<string, string>): Violation {
  const { violations } = check(extra);
  expect(violations.map((v) => v.text)).toHaveLength(1);
  const [violation] = violations;
  if (!violation) throw new Error("no violation");
  return violation;
}

describe("check-boundaries: the import graph", () => {
  it("passes a tree that keeps every rule", () => {
    const result = checkBoundaries({ root: tree(CLEAN) });
    expect(result.violations).toEqual([]);
    // …and it did read the graph: static, re-exported and dynamic imports, resolved to files.
    const edges = readImports(tree(CLEAN), ["src/client/features/dentist/pages.tsx"]);
    expect(edges.map((e) => e.to)).toEqual([
      "src/client/features/dentist/ProposalPage/index.tsx",
      "src/client/features/dentist/offers/OffersPage.tsx",
    ]);
    expect(floors(result.graph).get("server")).toBe(7);
  });

  it("refuses a feature importing another feature, naming the file, the line and the import", () => {
    const v = only({
      "src/client/features/patient/Compare.tsx":
        'import { Chat } from "../../components/chat";\nimport { P } from "../dentist/pages";\nexport const C = [Chat, P];\n',
    });
    expect(v.rule).toBe("feature-to-feature");
    expect(v.text).toContain(
      'src/client/features/patient/Compare.tsx:2 imports "../dentist/pages" (src/client/features/dentist/pages.tsx)',
    );
    expect(v.text).toContain('feature "patient" imports feature "dentist"');
  });

  it("refuses a feature's test importing another feature too", () => {
    expect(only({ "src/client/features/patient/x.test.tsx": 'import "../dentist/pages";\n' }).rule).toBe(
      "feature-to-feature",
    );
  });

  it("refuses the client importing the server, and the server importing the client", () => {
    expect(
      only({
        "src/client/lib/types.ts":
          'import type { AppError } from "../../server/errors";\nexport type T = AppError;\n',
      }).rule,
    ).toBe("client-server");
    const v = only({
      "src/server/modules/quotes/labels.ts":
        'export { Button } from "../../../client/components/ui/Button";\n',
    });
    expect(v.rule).toBe("client-server");
    expect(v.text).toContain("the server imports only src/shared");
  });

  it("refuses src/shared importing the client or the server", () => {
    expect(
      only({ "src/shared/domain/x.ts": 'import { db } from "../../server/db";\nexport const x = db;\n' })
        .rule,
    ).toBe("shared-imports-shared");
  });

  it("refuses components/ or lib/ importing a feature or app/", () => {
    expect(
      only({
        "src/client/components/Card.tsx":
          'import { P } from "../features/patient/pages";\nexport const C = P;\n',
      }).rule,
    ).toBe("shared-ui-imports-feature");
  });

  it("refuses a *.routes.ts imported by anything but app.ts and tests", () => {
    const v = only({
      "src/server/modules/requests/reply.service.ts":
        'import { quotesRoutes } from "../quotes/quotes.routes";\nexport const x = quotesRoutes;\n',
    });
    expect(v.rule).toBe("routes-only-from-app");
    expect(v.from).toBe("src/server/modules/requests/reply.service.ts");
  });

  it("refuses a module's routes using another module's repo (its service may)", () => {
    const v = only({
      "src/server/modules/requests/requests.routes.ts":
        'import { r } from "./requests.service";\nimport { q } from "../quotes/quotes.repo";\nexport const requestsRoutes = [r, q];\n',
    });
    expect(v.rule).toBe("repo-from-other-routes");
    expect(v.text).toContain('routes of module "requests" use the repo of module "quotes"');
  });

  it("refuses reaching into a page folder or a component folder from outside (its door, or a test, may)", () => {
    const v = only({
      "src/client/features/dentist/SubmissionPage.tsx":
        'import { Form } from "./ProposalPage/Form";\nexport default Form;\n',
    });
    expect(v.rule).toBe("folder-internals");
    expect(v.text).toContain("whose door is src/client/features/dentist/ProposalPage/index.tsx");
    // A folder whose door is its *Page.tsx (no index).
    expect(
      only({ "src/client/features/dentist/pages2.tsx": 'export { Row } from "./offers/Row";\n' }).text,
    ).toContain("offers/OffersPage.tsx");
    expect(
      only({
        "src/client/features/patient/Thread.tsx":
          'import { Part } from "../../components/chat/Part";\nexport default Part;\n',
      }).rule,
    ).toBe("folder-internals");
  });

  it("refuses an upward import in the server's layers, and a server folder in no layer", () => {
    const v = only({
      "src/server/files/names.ts":
        'import { readQuote } from "../modules/quotes/quotes.service";\nexport const p = readQuote;\n',
    });
    expect(v.rule).toBe("server-layer");
    expect(v.text).toContain('upward import: "files" (base) imports "modules/quotes" (modules)');
    const unplaced = only({ "src/server/gadgets/x.ts": "export const x = 1;\n" });
    expect(unplaced.rule).toBe("server-layer");
    expect(unplaced.text).toContain('"gadgets" is in no layer');
  });

  it("refuses a circle between server modules, listing the imports that make it", () => {
    const v = only({
      "src/server/modules/quotes/quotes.service.ts":
        'import { q } from "./quotes.repo";\nimport { r } from "../requests/requests.service";\nexport const readQuote = [q, r];\n',
    });
    expect(v.rule).toBe("server-circle");
    expect(v.from).toBe("modules/quotes <-> modules/requests");
    expect(v.text).toContain(
      'src/server/modules/quotes/quotes.service.ts:2 imports "../requests/requests.service"',
    );
    expect(v.text).toContain(
      'src/server/modules/requests/requests.service.ts:1 imports "../quotes/quotes.repo"',
    );
  });
});

describe("check-boundaries: the allowlist", () => {
  const upward = {
    "src/server/files/names.ts":
      'import { readQuote } from "../modules/quotes/quotes.service";\nexport const p = readQuote;\n',
  };
  const entry: AllowlistEntry = {
    rule: "server-layer",
    from: "src/server/files/names.ts",
    to: "src/server/modules/quotes/quotes.service.ts",
    reason: "test",
  };

  it("lets a listed import through, and says when an entry matches nothing any more", () => {
    const listed = check(upward, [entry]);
    expect(listed.violations).toEqual([]);
    expect(listed.allowed).toHaveLength(1);
    expect(listed.stale).toEqual([]);
    const fixed = check({}, [entry]);
    expect(fixed.stale).toEqual([entry]);
  });

  it("cuts a circle at a listed import, and calls the entry stale once the circle is gone", () => {
    const circle = {
      "src/server/modules/quotes/quotes.service.ts":
        'import { q } from "./quotes.repo";\nimport { r } from "../requests/requests.service";\nexport const readQuote = [q, r];\n',
    };
    const cut: AllowlistEntry = {
      rule: "server-circle",
      from: "src/server/modules/quotes/quotes.service.ts",
      to: "src/server/modules/requests/requests.service.ts",
      reason: "test",
    };
    expect(check(circle, [cut]).violations).toEqual([]);
    expect(check(circle, [cut]).stale).toEqual([]);
    // The other side of the circle went: the import stays, but closes nothing.
    const broken = check(
      {
        ...circle,
        "src/server/modules/requests/requests.service.ts": "export const r = 1;\n",
        "src/server/modules/requests/requests.routes.ts":
          'import { r } from "./requests.service";\nexport const requestsRoutes = [r];\n',
      },
      [cut],
    );
    expect(broken.violations).toEqual([]);
    expect(broken.stale).toEqual([cut]);
  });

  it("gives every entry of the repository's allowlist a reason", () => {
    for (const e of ALLOWLIST) expect(e.reason.length, `${e.from} → ${e.to}`).toBeGreaterThan(10);
  });
});

describe("check-boundaries: the command", () => {
  const run = (root: string) =>
    spawnSync(
      process.execPath,
      [path.join(import.meta.dirname, "check-boundaries.mjs"), "--root", root, "--no-allowlist"],
      {
        encoding: "utf8",
      },
    );

  it("exits 1 and prints the broken rule, and 0 on a clean tree", () => {
    const bad = run(
      tree({ ...CLEAN, "src/client/features/patient/Compare.tsx": 'import "../dentist/pages";\n' }),
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('src/client/features/patient/Compare.tsx:1 imports "../dentist/pages"');
    expect(bad.stderr).toContain("feature-to-feature");
    const good = run(tree(CLEAN));
    expect(good.stderr).toBe("");
    expect(good.stdout).toContain("Import boundaries: OK.");
    expect(good.status).toBe(0);
  });

  it("builds the server graph from non-test imports only", () => {
    const root = tree(CLEAN);
    const graph = serverGraph(readImports(root, ["src/server/modules/requests/requests.test.ts"]));
    expect(graph.size).toBe(0);
  });
});
