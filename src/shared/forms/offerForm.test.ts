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

  it("place les erreurs du serveur sous le bon champ", () => {
    expect(formPathOf("amount_cents")).toBe("amount");
    expect(formPathOf("lines.2.fee_cents")).toBe("lines.2.fee_cents");
    expect(formPathOf("lines.0.tooth")).toBe("lines.0.tooth");
    expect(formPathOf("lines.1.act")).toBe("lines.1.act");
    expect(formPathOf("lines.1.code")).toBe("lines.1.code");
    expect(formPathOf("lines.1.br_cents")).toBe("lines.1.br_cents");
    expect(formPathOf("lines.1.other")).toBe("lines.1.act");
    expect(formPathOf("lines")).toBe("lines.root");
    expect(formPathOf("slots.1")).toBe("slots.1.date");
    expect(formPathOf("valid_until")).toBe("valid_until");
    expect(formPathOf("comment")).toBe("comment");
    expect(formPathOf("something_else")).toBe("root.server");
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
