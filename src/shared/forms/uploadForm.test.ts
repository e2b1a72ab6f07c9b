import { describe, expect, it } from "vitest";
import { requestFieldsSchema, UPLOAD_MESSAGES } from "../schemas/requests";
import { EMPTY_UPLOAD, uploadErrorsFromApi, validateUpload } from "./uploadForm";

const quote = [{ file: { name: "devis.pdf" } }];

describe("upload form", () => {
  it("asks for a file, a treatment and the consent", () => {
    expect(validateUpload(EMPTY_UPLOAD, [])).toEqual({
      files: UPLOAD_MESSAGES.noFile,
      treatment_type: UPLOAD_MESSAGES.treatmentRequired,
      consent: UPLOAD_MESSAGES.consentRequired,
    });
    expect(validateUpload({ ...EMPTY_UPLOAD, treatment_type: "implant", consent: true }, quote)).toEqual({});
  });

  it("reads the typed amount only without the devis line by line", () => {
    const values = {
      ...EMPTY_UPLOAD,
      treatment_type: "implant" as const,
      consent: true,
      quote_amount: "beaucoup",
    };
    expect(validateUpload(values, quote).quote_amount).toBe(UPLOAD_MESSAGES.quoteAmountInvalid);
    expect(validateUpload(values, quote, true).quote_amount).toBeUndefined();
    expect(validateUpload({ ...values, quote_amount: "1 250,50" }, quote)).toEqual({});
    expect(validateUpload({ ...values, quote_amount: "100 000" }, quote)).toEqual({});
    expect(validateUpload({ ...values, quote_amount: "100 000,01" }, quote).quote_amount).toBe(
      UPLOAD_MESSAGES.quoteAmountTooHigh,
    );
  });

  it("says a devis of 0 € must be more, in the browser and in the server's schema", () => {
    const values = { ...EMPTY_UPLOAD, treatment_type: "implant" as const, consent: true };
    for (const zero of ["0", "0,00", "0 €"]) {
      expect(validateUpload({ ...values, quote_amount: zero }, quote).quote_amount).toBe(
        "Le montant du devis doit être supérieur à 0 €.",
      );
    }
    const refused = requestFieldsSchema.safeParse({
      treatment_type: "implant",
      consent: "true",
      quote_amount: "0",
    });
    expect(refused.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["quote_amount", UPLOAD_MESSAGES.quoteAmountZero],
    ]);
    // Something that is not an amount keeps the generic message.
    expect(validateUpload({ ...values, quote_amount: "-5" }, quote).quote_amount).toBe(
      UPLOAD_MESSAGES.quoteAmountInvalid,
    );
  });

  it("reads dots grouping thousands only when they cannot be a decimal point", () => {
    const values = { ...EMPTY_UPLOAD, treatment_type: "implant" as const, consent: true };
    for (const amount of ["1.250,50", "12.500,00", "1.250", "1.25", "1250.5"]) {
      expect(validateUpload({ ...values, quote_amount: amount }, quote)).toEqual(
        amount === "1.250" ? { quote_amount: UPLOAD_MESSAGES.quoteAmountInvalid } : {},
      );
    }
    const read = (quote_amount: string) =>
      requestFieldsSchema.parse({ treatment_type: "implant", consent: "true", quote_amount }).quote_amount;
    expect(read("1.250,50")).toBe(125_050);
    expect(read("12.500,00")).toBe(1_250_000);
    expect(read("1.25")).toBe(125);
    expect(read("1250.5")).toBe(125_050);
  });

  it("puts the API's field errors beside their control, the others under the files", () => {
    expect(
      uploadErrorsFromApi({
        status: 400,
        message: "Requête invalide",
        fields: { budget: "Trop long", "quote_lines.0.fee": "Montant invalide", "files.0": "Type refusé" },
      }),
    ).toEqual({ budget: "Trop long", files: "Type refusé" });
    expect(uploadErrorsFromApi({ status: 413, message: "Fichier trop volumineux", fields: {} })).toEqual({
      files: "Fichier trop volumineux",
    });
    expect(uploadErrorsFromApi({ status: 0, message: "Réseau", fields: {} })).toEqual({});
    expect(uploadErrorsFromApi({ status: 500, message: "Erreur", fields: {} })).toEqual({});
  });
});
