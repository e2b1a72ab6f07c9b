/**
 * The wording rules of docs/glossary.md, checked on the source: every string literal, template text
 * and JSX text of the client, of src/shared (the messages the server answers with, the schemas' errors)
 * and of the server's e-mail templates that reads as French is scanned for
 * - "(s)" plurals (use plural() from src/shared/format/plural.ts),
 * - the word "Email" (write "E-mail" / "e-mail"),
 * - "!", "?", ";" or ":" ending a word without the narrow no-break space U+202F before it,
 * - « and » without a no-break space inside,
 * - the brand written as is: « Sourio » comes from the configuration (BRAND_NAME, D18).
 * Code is not text: only string/JSX text nodes are read (never regexes, operators or type names, nor
 * the message of an Error a program throws for its developers), and
 * the punctuation rule applies to text that contains a space (a single token like "mailto:" or
 * "sm:grid" is not a sentence) and only when the sign ends a word (followed by a space or the end).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = process.cwd();
const NNBSP = "\u202f";

/**
 * Files read besides src/client: the e-mails users receive, the landing page's figures the server
 * writes, and the server's other texts that users read (the offer's chat message, the calendar file,
 * the audit list's subjects, the devices' names). Not the invoice PDFs (their embedded font has no
 * narrow no-break space: pdfEuros replaces it) nor what the demo's people wrote (their own words).
 */
const EXTRA_FILES = [
  "src/server/mail/templates.ts",
  "src/server/modules/public-stats/public-stats.service.ts",
  "src/server/modules/export/export.readme.ts",
  "src/server/modules/offers/offers.service.ts",
  "src/server/modules/appointments/appointments.service.ts",
  "src/server/modules/appointments/calendar.ts",
  "src/server/modules/admin/admin.repo.ts",
  "src/server/modules/conversations/conversations.service.ts",
  "src/server/modules/support/support.service.ts",
  "src/server/modules/security/device.ts",
];

/**
 * Justified exceptions, as "path: exact text". Keep it tiny.
 * - Two act labels of the table: offers store them as their lines' names and are matched against them
 *   (offerActName); their spaces stay as stored.
 */
const ALLOW: readonly string[] = [
  "src/shared/domain/acts.ts: Couronne transitoire (pour une couronne 100 % Santé)",
  "src/shared/domain/acts.ts: Inlay-core sous couronne ou pilier 100 % Santé",
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name === "test") continue; // test helpers and fakes
      out.push(...sourceFiles(path));
    } else if (/\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name)) {
      out.push(path);
    }
  }
  return out;
}

type Text = { text: string; line: number; jsx: boolean };

/** Calls whose string arguments are code (class lists, media queries), not text. */
const CODE_CALLS = new Set(["cn", "clsx", "cva", "twMerge", "matchMedia"]);

/** A className attribute or an argument of a CODE_CALLS call: Tailwind's "sm:grid", "h-auto!". */
function isCode(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isJsxAttribute(parent)) return ["className", "class"].includes(parent.name.getText());
    if (ts.isCallExpression(parent)) {
      const callee = parent.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : "";
      if (CODE_CALLS.has(name)) return true;
    }
    if (ts.isBlock(parent) || ts.isSourceFile(parent)) return false;
  }
  return false;
}

/** The message of `new Error(…)` (or any `…Error`): for developers, in English, never shown as is. */
function isThrownError(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isNewExpression(parent)) return /Error$/.test(parent.expression.getText());
    if (ts.isBlock(parent) || ts.isSourceFile(parent)) return false;
  }
  return false;
}

/** JSX text as the reader sees it: entities decoded, line breaks collapsed. */
function jsxReadable(raw: string): string {
  return raw
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&#(x?)([0-9a-f]+);/gi, (_, hex: string, code: string) =>
      String.fromCodePoint(Number.parseInt(code, hex ? 16 : 10)),
    )
    .replace(/&\w+;/g, "&")
    .replace(/^[ \t]*\n\s*|\s*\n[ \t]*$/g, "") // JSX drops whitespace that holds a line break at the ends
    .replace(/[ \t]*\n[ \t]*/g, " ");
}

/** The human-readable texts of a file: string literals, template pieces and JSX text. */
function textsOf(path: string): Text[] {
  const source = ts.createSourceFile(
    path,
    readFileSync(path, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const texts: Text[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    // Module names and literal types are code, not text.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node)) return;
    if (isCode(node) || isThrownError(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      texts.push({ text: node.text, line: lineOf(node), jsx: false });
    } else if (ts.isTemplateExpression(node)) {
      // The pieces around ${…} joined by a placeholder word, so "Total : ${x}" reads as one sentence.
      // ${NNBSP} is the narrow no-break space itself.
      const joined = node.templateSpans.reduce(
        (text, span) =>
          text + (span.expression.getText(source) === "NNBSP" ? NNBSP : "X") + span.literal.text,
        node.head.text,
      );
      texts.push({ text: joined, line: lineOf(node), jsx: false });
    } else if (ts.isJsxText(node)) {
      const text = jsxReadable(node.text);
      if (text.trim()) texts.push({ text, line: lineOf(node), jsx: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

/** What is wrong with one text, in French-typography terms; empty when fine. */
function wordingProblems(text: string, jsx = false): string[] {
  const problems: string[] = [];
  if (!jsx && !/\p{L}{2}/u.test(text)) return problems; // no word: not French text
  if (/^\((?:min-|max-|prefers-|hover|pointer|orientation)/.test(text)) return problems; // a CSS media query
  if (/\p{L}\(s\)/u.test(text)) problems.push("pluriel en « (s) » : utiliser plural()");
  if (/\bEmail\b/.test(text)) problems.push("« Email » : écrire « E-mail »");
  // The reader's gender is not known (glossary, « Gender-neutral phrasing »): no « vous serez prévenu ».
  if (
    /\b[Vv]ous (?:ne |n')?(?:vous )?(?:serez|êtes|étiez|avez été)(?: pas| jamais| déjà| bien)? [\p{L}-]+(?:é|i|is|it|u)(?!\p{L})/u.test(
      text,
    )
  )
    problems.push("participe accordé au lecteur (« vous serez prévenu ») : dire ce qui se passe");
  const sentence = jsx || /\s/.test(text);
  if (sentence && /(?<![\w@.-])emails?\b/.test(text))
    problems.push("« email » dans une phrase : écrire « e-mail »");
  if (sentence) {
    // A sign that ends a word: followed by a space, a closing sign or the end.
    const bad = /([\p{L}\p{N})»"' \u00a0])([!?;:])(?=$|[\s)»"'.,…])/gu;
    for (const match of text.matchAll(bad)) {
      problems.push(`« ${match[1]}${match[2]} » : espace fine insécable (U+202F) avant « ${match[2]} »`);
    }
    // « 100 % Santé », « 60 % de la BR »: the sign never alone at the start of a line.
    if (/(?:^|\p{N}|\bX) %/u.test(text)) problems.push("« 100 % » : espace insécable (U+202F) avant « % »");
    if (/«[^\u202f\u00a0]/.test(text) || /[^\u202f\u00a0]»/.test(text)) {
      problems.push("guillemets « » sans espace insécable à l'intérieur");
    }
  }
  return problems;
}

describe("wordingProblems", () => {
  it("finds the mistakes the glossary forbids", () => {
    expect(wordingProblems("Demande envoyée avec succès!")).toHaveLength(1);
    expect(wordingProblems("Vous avez un compte ?")).toHaveLength(1);
    expect(wordingProblems("Montant : 120 €")).toHaveLength(1);
    expect(wordingProblems("2 fichier(s) ajouté(s)")).toHaveLength(1);
    expect(wordingProblems("Email")).toHaveLength(1);
    expect(wordingProblems("Votre Email professionnel")).toHaveLength(1);
    expect(wordingProblems("Notre équipe répond par email.")).toHaveLength(1);
    expect(wordingProblems("Une question?", true)).toHaveLength(1);
    expect(wordingProblems("Le mot « devis » signifie")).toHaveLength(1);
    expect(wordingProblems("Vous serez prévenu par e-mail de chaque réponse.")).toHaveLength(1);
    expect(wordingProblems("Vous n'êtes jamais obligé d'accepter.")).toHaveLength(1);
    expect(wordingProblems("Vous avez été déconnecté de cet appareil.")).toHaveLength(1);
    expect(wordingProblems("Vous ne vous êtes pas connecté depuis longtemps.")).toHaveLength(1);
    expect(wordingProblems("Un acte 100 % Santé")).toHaveLength(1);
    expect(wordingProblems(" % de la BR", true)).toHaveLength(1);
  });

  it("accepts correct French and leaves code alone", () => {
    expect(wordingProblems(`Demande envoyée${NNBSP}!`)).toEqual([]);
    expect(wordingProblems(`Vous avez un compte${NNBSP}?`)).toEqual([]);
    expect(wordingProblems(`Montant${NNBSP}: 120 €`)).toEqual([]);
    expect(wordingProblems("2 fichiers ajoutés")).toEqual([]);
    expect(wordingProblems("E-mail")).toEqual([]);
    expect(wordingProblems("email")).toEqual([]);
    expect(wordingProblems("Un e-mail lui sera envoyé.")).toEqual([]);
    expect(wordingProblems("Un e-mail vous préviendra de chaque réponse.")).toEqual([]);
    expect(wordingProblems("Vous êtes sur la page de dépôt.")).toEqual([]);
    expect(wordingProblems("Vous avez été nombreux.")).toEqual([]);
    expect(wordingProblems(`Le mot «${NNBSP}devis${NNBSP}» signifie`)).toEqual([]);
    expect(wordingProblems(`Un acte 100${NNBSP}% Santé`)).toEqual([]);
    expect(wordingProblems("flex items-center sm:grid md:grid-cols-2")).toEqual([]);
    expect(wordingProblems("https://example.org/a?b=c")).toEqual([]);
    expect(wordingProblems("mailto:")).toEqual([]);
    expect(wordingProblems("(max-width: 767px)")).toEqual([]);
    expect(wordingProblems("Rendez-vous à 10:30 demain")).toEqual([]);
    expect(wordingProblems("/api/requests?page=2")).toEqual([]);
  });
});

describe("the French of the client, the shared messages and the e-mails", () => {
  const files = [
    ...sourceFiles(join(root, "src", "client")),
    ...sourceFiles(join(root, "src", "shared")),
    ...EXTRA_FILES.map((file) => join(root, file)),
  ];

  it("reads at least the landing page, the shared messages and the e-mails", () => {
    const names = files.map((file) => relative(root, file));
    expect(names).toContain("src/client/features/public/LandingPage.tsx");
    expect(names).toContain("src/shared/schemas/requests.ts");
    expect(names).toContain("src/server/mail/templates.ts");
    expect(names).toContain("src/server/modules/public-stats/public-stats.service.ts");
  });

  it("has no '(s)', no 'Email' and a narrow no-break space before ! ? ; :", () => {
    const found: string[] = [];
    for (const file of files) {
      const path = relative(root, file);
      for (const { text, line, jsx } of textsOf(file)) {
        if (ALLOW.includes(`${path}: ${text}`)) continue;
        for (const problem of wordingProblems(text, jsx)) found.push(`${path}:${line} ${problem} — ${text}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("never writes the brand as is: it is BRAND_NAME's (D18), the client's default config aside", () => {
    const found: string[] = [];
    for (const file of files) {
      const path = relative(root, file);
      for (const { text, line } of textsOf(file)) {
        // A web or e-mail address (sourio.fr, @demo.sourio.fr) is not the name.
        if (!/\bSourio\b/.test(text.replace(/\S*sourio\.[a-z]\S*/gi, ""))) continue;
        if (path === "src/client/lib/config.ts" && text === "Sourio") continue;
        found.push(`${path}:${line} — ${text}`);
      }
    }
    expect(found).toEqual([]);
  });
});
