import { describe, expect, it } from "vitest";
import { UPLOAD_MESSAGES } from "../schemas/requests";
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
