import { describe, expect, it } from "vitest";
import { z } from "zod";
import "./zod-fr";

const messages = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.message);

describe("zod's messages in French (zod-fr.ts)", () => {
  it("is the error map zod uses (through its global configuration)", () => {
    expect(z.config().customError).toBeTypeOf("function");
    expect(messages(z.string(), 1)).toEqual(["Ce champ doit être un texte."]);
  });

  it.each([
    ["a missing field", z.object({ a: z.string() }), {}, "Ce champ est obligatoire."],
    ["a wrong type", z.object({ a: z.string() }), { a: 1 }, "Ce champ doit être un texte."],
    ["a number that is not one", z.coerce.number(), "abc", "Ce champ doit être un nombre."],
    ["a decimal for an integer", z.number().int(), 1.5, "Ce champ doit être un nombre entier."],
    ["a too long text", z.string().max(3), "abcd", "Ce texte ne doit pas dépasser 3 caractères."],
    ["an empty text", z.string().min(1), "", "Ce champ est obligatoire."],
    ["a too short text", z.string().min(5), "ab", "Ce texte doit contenir au moins 5 caractères."],
    ["a too large number", z.number().max(10), 11, "La valeur ne doit pas dépasser 10."],
    ["a number not above", z.number().positive(), 0, "La valeur doit être supérieure à 0."],
    ["an empty list", z.array(z.string()).min(1), [], "Ajoutez au moins un élément."],
    [
      "a too long list",
      z.array(z.string()).max(1),
      ["a", "b"],
      "Cette liste ne doit pas dépasser 1 élément.",
    ],
    [
      "a text of the wrong length",
      z.string().length(2),
      "a",
      "Ce texte doit contenir exactement 2 caractères.",
    ],
    ["a too short list", z.array(z.string()).min(3), ["a"], "Cette liste doit contenir au moins 3 éléments."],
    [
      "a list of the wrong length",
      z.array(z.string()).length(2),
      ["a"],
      "Cette liste doit contenir exactement 2 éléments.",
    ],
    [
      "a too large set",
      z.set(z.string()).max(2),
      new Set(["a", "b", "c"]),
      "Cette liste ne doit pas dépasser 2 éléments.",
    ],
    ["a uuid", z.uuid(), "x", "Identifiant invalide."],
    ["an e-mail address", z.email(), "x", "Adresse e-mail invalide."],
    ["a date and time", z.iso.datetime(), "x", "Date et heure invalides."],
    ["a pattern", z.string().regex(/^a$/), "b", "Format invalide."],
    ["an option", z.enum(["a", "b"]), "c", 'Valeur non acceptée (valeurs possibles\u202f: "a", "b").'],
    ["a literal", z.literal("oui"), "non", 'La valeur attendue est "oui".'],
    ["a multiple", z.number().multipleOf(5), 3, "La valeur doit être un multiple de 5."],
    ["an unknown key", z.strictObject({}), { x: 1 }, "Champ inconnu\u202f: x."],
    ["a union", z.union([z.string(), z.number()]), true, "Valeur invalide."],
    ["a refinement", z.string().refine(() => false), "x", "Valeur invalide."],
  ])("%s", (_name, schema, value, expected) => {
    expect(messages(schema, value)).toEqual([expected]);
  });

  it("lets the messages written in a schema win", () => {
    expect(messages(z.uuid({ error: "Document introuvable." }), "x")).toEqual(["Document introuvable."]);
    expect(messages(z.string().min(2, "Deux lettres au moins."), "x")).toEqual(["Deux lettres au moins."]);
    expect(messages(z.string({ error: "Votre nom." }), undefined)).toEqual(["Votre nom."]);
  });
});
