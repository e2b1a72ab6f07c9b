import { describe, expect, it } from "vitest";
import { EMPTY_FORM, formPathOf, proposalFormSchema, toOfferInput } from "./offerForm";

describe("formulaire de proposition : règles", () => {
  it("lit les montants français et les champs vides", () => {
    expect(
      toOfferInput({
        amount: "1 234,5",
        comment: "",
        lines: [{ id: "l1", code: null, act: "A", tooth: null, fee: "", br: "" }],
        valid_until: "",
        slots: [
          { date: "2027-01-02", time: "09:05:00" },
          { date: "2027-01-02", time: "" },
        ],
      }),
    ).toEqual({
      amount_cents: 123_450,
      comment: "",
      lines: [{ code: null, act: "A", tooth: null, fee_cents: Number.NaN, br_cents: null }],
      valid_until: null,
      slots: ["2027-01-02T09:05", ""],
    });
    expect(
      toOfferInput({ amount: "douze", comment: "", lines: [], valid_until: "", slots: [] }).amount_cents,
    ).toBeNaN();
  });

  it.each([
    ["amount_cents", "amount"],
    ["lines.2.fee_cents", "lines.2.fee_cents"],
    ["lines.0.tooth", "lines.0.tooth"],
    ["lines.1.act", "lines.1.act"],
    ["lines.1.code", "lines.1.code"],
    ["lines.1.br_cents", "lines.1.br_cents"],
    ["lines.1.other", "lines.1.act"],
    ["lines", "lines.root"],
    ["slots.1", "slots.1.date"],
    ["valid_until", "valid_until"],
    ["comment", "comment"],
    ["something_else", "root.server"],
  ])("place l'erreur du serveur sur %s sous le champ %s", (serverPath, formPath) => {
    expect(formPathOf(serverPath)).toBe(formPath);
  });

  it("dit qu'un montant ou des honoraires de 0 € doivent être supérieurs à 0, sous leur champ", () => {
    const line = { id: "l1", code: null, act: "Soin", tooth: null, fee: "0,00", br: "" };
    const refused = proposalFormSchema.safeParse({ ...EMPTY_FORM, amount: "0", lines: [line] });
    const messages = Object.fromEntries(
      (refused.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]),
    );
    expect(messages.amount).toBe("Le montant doit être supérieur à 0 €.");
    expect(messages["lines.0.fee_cents"]).toBe("Les honoraires doivent être supérieurs à 0 €.");
    // What is not an amount keeps its message.
    const unreadable = proposalFormSchema.safeParse({ ...EMPTY_FORM, amount: "douze" });
    expect(unreadable.error?.issues.find((issue) => issue.path.join(".") === "amount")?.message).toBe(
      "Le montant doit être un nombre positif en euros (ex. 1 250,50).",
    );
  });

  it("lit « 1.250,50 » avec un point pour les milliers, et « 1250.5 » avec un point décimal", () => {
    const read = (amount: string) => toOfferInput({ ...EMPTY_FORM, amount }).amount_cents;
    expect(read("1.250,50")).toBe(125_050);
    expect(read("1250.5")).toBe(125_050);
    expect(read("1.250")).toBeNaN();
  });

  it("refuse un montant illisible sous le champ du montant, et rend l'offre de l'API sinon", () => {
    const refused = proposalFormSchema.safeParse({ ...EMPTY_FORM, amount: "douze" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join("."))).toContain("amount");
    const accepted = proposalFormSchema.safeParse({ ...EMPTY_FORM, amount: "1 250,50", comment: "Implant" });
    expect(accepted.success).toBe(true);
    expect(accepted.data).toMatchObject({ amount_cents: 125_050, comment: "Implant", lines: [], slots: [] });
  });
});
