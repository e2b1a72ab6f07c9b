import type { $ZodConfig } from "zod/v4/core";

/**
 * zod's messages in French, for the server (validation errors of every route) and the client (forms),
 * configured once by importing this module (app.ts, client/main.tsx, client/test/setup.ts).
 *
 * zod 4 ships a French locale (zod/v4/locales/fr), but it reads like a translated compiler message
 * ("Trop grand : chaîne de caractères doit avoir <=100 caractères", "Entrée invalide : nombre
 * attendu, chaîne de caractères reçu"): every issue code is written here instead, as a person reads
 * it beside a field. Messages written in a schema (`{ error: "…" }`, `.min(1, "…")`) always win:
 * zod applies the schema's message first, then the global `customError`.
 *
 * No runtime import of zod: the client's entry imports this module, and zod (with its locale's
 * helpers) would otherwise land in the landing page's initial JS (+5 KB gzip) although only lazy
 * chunks use it. zod keeps its global configuration on `globalThis.__zod_globalConfig` and documents
 * that pre-populating it before zod loads takes effect on import (zod/v4/core/core.ts); `z.config()`
 * writes the same object. src/shared/schemas/zod-fr.test.ts checks that zod picks it up.
 */

type Issue = Parameters<NonNullable<$ZodConfig["customError"]>>[0];

const EXPECTED: Record<string, string> = {
  string: "Ce champ doit être un texte.",
  number: "Ce champ doit être un nombre.",
  int: "Ce champ doit être un nombre entier.",
  bigint: "Ce champ doit être un nombre entier.",
  nan: "Ce champ doit être un nombre.",
  boolean: "Ce champ doit valoir vrai ou faux.",
  date: "Ce champ doit être une date.",
  array: "Ce champ doit être une liste.",
  tuple: "Ce champ doit être une liste.",
  set: "Ce champ doit être une liste.",
  object: "Ce champ doit être un objet.",
  record: "Ce champ doit être un objet.",
  map: "Ce champ doit être un objet.",
  file: "Ce champ doit être un fichier.",
  null: "Ce champ doit être vide.",
  undefined: "Ce champ n'est pas attendu.",
  void: "Ce champ n'est pas attendu.",
  never: "Ce champ n'est pas attendu.",
};

const FORMATS: Record<string, string> = {
  uuid: "Identifiant invalide.",
  uuidv4: "Identifiant invalide.",
  uuidv6: "Identifiant invalide.",
  uuidv7: "Identifiant invalide.",
  guid: "Identifiant invalide.",
  cuid: "Identifiant invalide.",
  cuid2: "Identifiant invalide.",
  ulid: "Identifiant invalide.",
  nanoid: "Identifiant invalide.",
  xid: "Identifiant invalide.",
  ksuid: "Identifiant invalide.",
  email: "Adresse e-mail invalide.",
  url: "Adresse web invalide.",
  datetime: "Date et heure invalides.",
  date: "Date invalide.",
  time: "Heure invalide.",
  duration: "Durée invalide.",
  e164: "Numéro de téléphone invalide.",
  ipv4: "Adresse IP invalide.",
  ipv6: "Adresse IP invalide.",
  base64: "Valeur encodée invalide.",
  base64url: "Valeur encodée invalide.",
  json_string: "JSON invalide.",
  jwt: "Jeton invalide.",
};

const plural = (n: number | bigint, one: string, many: string) => (Number(n) > 1 ? many : one);

/** The value in a message: strings quoted, others as they print. */
function shown(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : String(value);
}

/** What a length counts in a text or a list, and the message when the rule is "at least one". */
const TEXT = {
  subject: "Ce texte",
  one: "caractère",
  many: "caractères",
  required: "Ce champ est obligatoire.",
};
const LIST = {
  subject: "Cette liste",
  one: "élément",
  many: "éléments",
  required: "Ajoutez au moins un élément.",
};
const COUNTED = { string: TEXT, array: LIST, set: LIST };
const isCounted = (origin: string): origin is keyof typeof COUNTED => Object.hasOwn(COUNTED, origin);

/** "Ce texte ne doit pas dépasser 100 caractères.", "Cette liste doit contenir exactement 2 éléments." */
function lengthMessage(
  origin: keyof typeof COUNTED,
  n: number | bigint,
  exact: boolean | undefined,
  rule: string,
) {
  const { subject, one, many } = COUNTED[origin];
  return `${subject} ${exact ? "doit contenir exactement" : rule} ${n} ${plural(n, one, many)}.`;
}

function tooBig(issue: Extract<Issue, { code: "too_big" }>): string {
  const inclusive = issue.inclusive !== false;
  const max = issue.maximum;
  if (isCounted(issue.origin)) {
    const n = inclusive ? max : BigInt(max) - 1n;
    return lengthMessage(issue.origin, n, issue.exact, "ne doit pas dépasser");
  }
  switch (issue.origin) {
    case "file":
      return `Le fichier ne doit pas dépasser ${max} octets.`;
    case "date":
      return `La date doit être au plus tard le ${new Date(Number(max)).toLocaleDateString("fr-FR")}.`;
    default:
      return inclusive
        ? `La valeur ne doit pas dépasser ${max}.`
        : `La valeur doit être inférieure à ${max}.`;
  }
}

function tooSmall(issue: Extract<Issue, { code: "too_small" }>): string {
  const inclusive = issue.inclusive !== false;
  const min = issue.minimum;
  if (isCounted(issue.origin)) {
    const n = inclusive ? min : BigInt(min) + 1n;
    if (Number(n) === 1 && !issue.exact) return COUNTED[issue.origin].required;
    return lengthMessage(issue.origin, n, issue.exact, "doit contenir au moins");
  }
  switch (issue.origin) {
    case "file":
      return "Le fichier est vide.";
    case "date":
      return `La date doit être au plus tôt le ${new Date(Number(min)).toLocaleDateString("fr-FR")}.`;
    default:
      return inclusive ? `La valeur doit être au moins ${min}.` : `La valeur doit être supérieure à ${min}.`;
  }
}

/** The French message of an issue (every issue code of zod 4). */
export function frenchMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "Ce champ est obligatoire.";
      return EXPECTED[issue.expected] ?? "Valeur invalide.";
    case "invalid_value":
      return issue.values.length === 1
        ? `La valeur attendue est ${shown(issue.values[0])}.`
        : `Valeur non acceptée (valeurs possibles : ${issue.values.map(shown).join(", ")}).`;
    case "too_big":
      return tooBig(issue);
    case "too_small":
      return tooSmall(issue);
    case "invalid_format":
      return FORMATS[issue.format] ?? "Format invalide.";
    case "not_multiple_of":
      return `La valeur doit être un multiple de ${issue.divisor}.`;
    case "unrecognized_keys":
      return `${plural(issue.keys.length, "Champ inconnu", "Champs inconnus")} : ${issue.keys.join(", ")}.`;
    case "invalid_key":
      return "Clé invalide.";
    case "invalid_element":
      return "Valeur invalide dans la liste.";
    default:
      return "Valeur invalide.";
  }
}

const holder = globalThis as { __zod_globalConfig?: Partial<$ZodConfig> };
holder.__zod_globalConfig ??= {};
holder.__zod_globalConfig.customError = frenchMessage;
