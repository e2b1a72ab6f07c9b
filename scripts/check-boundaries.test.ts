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
  SERVER_MAX_FLOORS,
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
  "src/server/db/index.ts": "export const db = 1;\n",
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

/** One broken rule each: the file added to the clean house, the rule, and what the report says. */
const CASES: { name: string; file: string; text: string; rule: string; says: string[] }[] = [
  {
    name: "a feature importing another feature, named by file, line and import",
    file: "src/client/features/patient/Compare.tsx",
    text: 'import { Chat } from "../../components/chat";\nimport { P } from "../dentist/pages";\nexport const C = [Chat, P];\n',
    rule: "feature-to-feature",
    says: [
      'src/client/features/patient/Compare.tsx:2 imports "../dentist/pages" (src/client/features/dentist/pages.tsx)',
      'feature "patient" imports feature "dentist"',
    ],
  },
  {
    name: "a feature's test importing another feature",
    file: "src/client/features/patient/x.test.tsx",
    text: 'import "../dentist/pages";\n',
    rule: "feature-to-feature",
    says: [],
  },
  {
    name: "the client importing the server (a type too)",
    file: "src/client/lib/types.ts",
    text: 'import type { AppError } from "../../server/errors";\nexport type T = AppError;\n',
    rule: "client-server",
    says: ["the client imports only src/shared"],
  },
  {
    name: "the server importing the client",
    file: "src/server/modules/quotes/labels.ts",
    text: 'export { Button } from "../../../client/components/ui/Button";\n',
    rule: "client-server",
    says: ["the server imports only src/shared"],
  },
  {
    name: "src/shared importing the server",
    file: "src/shared/domain/x.ts",
    text: 'import { db } from "../../server/db";\nexport const x = db;\n',
    rule: "shared-imports-shared",
    says: [],
  },
  {
    name: "components/ importing a feature",
    file: "src/client/components/Card.tsx",
    text: 'import { P } from "../features/patient/pages";\nexport const C = P;\n',
    rule: "shared-ui-imports-feature",
    says: [],
  },
  {
    name: "a feature importing app/",
    file: "src/client/features/patient/Back.tsx",
    text: 'import { routes } from "../../app/routes";\nexport const B = routes;\n',
    rule: "feature-imports-app",
    says: ["a feature never imports app/"],
  },
  {
    name: "a *.routes.ts imported by anything but app.ts and tests",
    file: "src/server/modules/requests/reply.service.ts",
    text: 'import { quotesRoutes } from "../quotes/quotes.routes";\nexport const x = quotesRoutes;\n',
    rule: "routes-only-from-app",
    says: ["src/server/modules/requests/reply.service.ts:1"],
  },
  {
    name: "a module's routes using another module's repo (its service may)",
    file: "src/server/modules/requests/requests.routes.ts",
    text: 'import { r } from "./requests.service";\nimport { q } from "../quotes/quotes.repo";\nexport const requestsRoutes = [r, q];\n',
    rule: "repo-from-other-routes",
    says: ['routes of module "requests" use the repo of module "quotes"'],
  },
  {
    name: "a page folder's inner file imported from outside, not through its index",
    file: "src/client/features/dentist/SubmissionPage.tsx",
    text: 'import { Form } from "./ProposalPage/Form";\nexport default Form;\n',
    rule: "folder-internals",
    says: ["whose door is src/client/features/dentist/ProposalPage/index.tsx"],
  },
  {
    name: "a folder of pages entered beside its *Page.tsx",
    file: "src/client/features/dentist/pages2.tsx",
    text: 'export { Row } from "./offers/Row";\n',
    rule: "folder-internals",
    says: ["whose door is src/client/features/dentist/offers/OffersPage.tsx"],
  },
  {
    name: "a component folder's inner file imported from a feature",
    file: "src/client/features/patient/Thread.tsx",
    text: 'import { Part } from "../../components/chat/Part";\nexport default Part;\n',
    rule: "folder-internals",
    says: [],
  },
  {
    name: "an upward import in the server's layers",
    file: "src/server/files/names.ts",
    text: 'import { readQuote } from "../modules/quotes/quotes.service";\nexport const p = readQuote;\n',
    rule: "server-layer",
    says: ['upward import: "files" (base) imports "modules/quotes" (modules)'],
  },
  {
    name: "a server folder in no layer",
    file: "src/server/gadgets/x.ts",
    text: "export const x = 1;\n",
    rule: "server-layer",
    says: ['"gadgets" is in no layer'],
  },
  {
    name: "a circle between server modules, with the imports that make it",
    file: "src/server/modules/quotes/quotes.service.ts",
    text: 'import { q } from "./quotes.repo";\nimport { r } from "../requests/requests.service";\nexport const readQuote = [q, r];\n',
    rule: "server-circle",
    says: [
      "circle between server units modules/quotes, modules/requests",
      'src/server/modules/quotes/quotes.service.ts:2 imports "../requests/requests.service"',
      'src/server/modules/requests/requests.service.ts:1 imports "../quotes/quotes.repo"',
      'src/server/modules/requests/requests.routes.ts:2 imports "../quotes/quotes.service"',
    ],
  },
];

/** The tree of the case named `name`, as files to add to the clean house. */
function caseFiles(name: string): Record<string, string> {
  const found = CASES.find((c) => c.name === name);
  if (!found) throw new Error(name);
  return { [found.file]: found.text };
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
    expect(floors(result.graph).get("server")).toBe(6);
  });

  it.each(CASES)("refuses $name", ({ file, text, rule, says }) => {
    const v = only({ [file]: text });
    expect(v.rule).toBe(rule);
    for (const part of says) expect(v.text).toContain(part);
  });
});

describe("check-boundaries: the ceiling on the server's floors", () => {
  // The clean house stands 6 floors: db, access, quotes, requests, app, server.
  const offers = {
    "src/server/modules/offers/offers.routes.ts":
      'import { r } from "../requests/requests.service";\nexport const offersRoutes = [r];\n',
    "src/server/app.ts":
      'import { offersRoutes } from "./modules/offers/offers.routes";\nimport { quotesRoutes } from "./modules/quotes/quotes.routes";\nimport { requestsRoutes } from "./modules/requests/requests.routes";\nexport const app = [offersRoutes, quotesRoutes, requestsRoutes];\n',
  };

  it("passes a house at the ceiling and refuses one floor more, naming the highest chain", () => {
    expect(SERVER_MAX_FLOORS).toBe(6);
    expect(check({}).violations).toEqual([]);
    const v = only(offers);
    expect(v.rule).toBe("server-floors");
    expect(v.text).toContain("stand 7 floors, at most 6");
    expect(v.from).toBe("server → app → modules/offers → modules/requests → modules/quotes → access → db");
    expect(v.text).toContain(
      'src/server/modules/offers/offers.routes.ts:1 imports "../requests/requests.service"',
    );
  });

  it("counts the floors without the tests", () => {
    const tested = {
      "src/server/modules/offers/offers.test.ts":
        'import { r } from "../requests/requests.service";\nimport { app } from "../../app";\nexport const t = [r, app];\n',
    };
    expect(check(tested).violations).toEqual([]);
    expect(checkBoundaries({ root: tree({ ...CLEAN, ...tested }), maxFloors: 5 }).violations[0]?.rule).toBe(
      "server-floors",
    );
  });
});

describe("check-boundaries: the allowlist", () => {
  const upward = caseFiles("an upward import in the server's layers");
  const allow = (rule: string, from: string, to: string): AllowlistEntry => ({
    rule,
    from,
    to,
    reason: "test",
  });
  const entry = allow(
    "server-layer",
    "src/server/files/names.ts",
    "src/server/modules/quotes/quotes.service.ts",
  );

  it("lets a listed import through, and says when an entry matches nothing any more", () => {
    const listed = check(upward, [entry]);
    expect(listed.violations).toEqual([]);
    expect(listed.allowed).toHaveLength(1);
    expect(listed.stale).toEqual([]);
    const fixed = check({}, [entry]);
    expect(fixed.stale).toEqual([entry]);
  });

  it("cuts a circle at a listed import, and calls the entry stale once the circle is gone", () => {
    const circle = caseFiles("a circle between server modules, with the imports that make it");
    const cut = allow(
      "server-circle",
      "src/server/modules/quotes/quotes.service.ts",
      "src/server/modules/requests/requests.service.ts",
    );
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

  it("is empty in the repository: a broken boundary is fixed, not listed (ADR 029)", () => {
    expect(ALLOWLIST).toEqual([]);
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
