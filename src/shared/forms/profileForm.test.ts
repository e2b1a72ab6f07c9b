import { describe, expect, it } from "vitest";
import { GEO_MESSAGES } from "../domain/geo";
import { PHONE_MESSAGES } from "../domain/phone";
import { PROFILE_MESSAGES } from "../schemas/profile";
import {
  DENTIST_PROFILE_FIELDS,
  fieldErrorsOf,
  listFr,
  PATIENT_PROFILE_FIELDS,
  patientProfileProblem,
  verificationHelp,
} from "./profileForm";

const patient = { full_name: "Marie Dupont", phone_number: "", city: "", postal_code: "", birth_date: "" };

describe("formulaires « Mon profil »", () => {
  it("place le premier message sous le champ qu'il concerne, et ignore les autres", () => {
    expect(
      fieldErrorsOf(DENTIST_PROFILE_FIELDS, [
        ["specialties.1", "Spécialité inconnue"],
        ["specialties", "Trop de spécialités"],
        ["rpps", "RPPS invalide"],
        ["email", "pas dans ce formulaire"],
      ]),
    ).toEqual({ specialties: "Spécialité inconnue", rpps: "RPPS invalide" });
    expect(fieldErrorsOf(PATIENT_PROFILE_FIELDS, [["postal_code", "Code inconnu"]])).toEqual({
      postal_code: "Code inconnu",
    });
  });

  it("refuse côté patient un nom vide puis un code postal qui n'a pas 5 chiffres", () => {
    expect(patientProfileProblem(patient)).toBeNull();
    expect(patientProfileProblem({ ...patient, full_name: "  " })).toEqual({
      field: "full_name",
      message: PROFILE_MESSAGES.nameRequired,
    });
    expect(patientProfileProblem({ ...patient, postal_code: "7500" })).toEqual({
      field: "postal_code",
      message: GEO_MESSAGES.postalCodeInvalid,
    });
    expect(patientProfileProblem({ ...patient, postal_code: " 75011 " })).toBeNull();
  });

  it("refuse côté patient un téléphone qui n'en est pas un, et garde le champ facultatif", () => {
    expect(patientProfileProblem({ ...patient, phone_number: "abc", postal_code: "7500" })).toEqual({
      field: "phone_number",
      message: PHONE_MESSAGES.invalid,
    });
    expect(patientProfileProblem({ ...patient, phone_number: "06 12" })?.field).toBe("phone_number");
    for (const phone of ["", "  ", "0612345678", "06 12 34 56 78", "06.12.34.56.78", "+33 6 12 34 56 78"]) {
      expect(patientProfileProblem({ ...patient, phone_number: phone }), phone).toBeNull();
    }
  });

  it("dit au dentiste ce qui manque avant de demander une vérification", () => {
    expect(listFr(["a"])).toBe("a");
    expect(listFr(["a", "b", "c"])).toBe("a, b et c");
    expect(verificationHelp(["rpps", "practice_postcode"])).toBe(
      "Pour demander une vérification, renseignez et enregistrez votre numéro RPPS et son code postal.",
    );
    expect(verificationHelp([])).toMatch(/^Votre numéro RPPS et l'adresse de votre cabinet sont enregistrés/);
  });
});
