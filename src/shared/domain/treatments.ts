/** Treatment types of a request (value / French label). */
export const TREATMENT_TYPES = [
  "implant",
  "crown",
  "veneer",
  "bridge",
  "denture",
  "rootcanal",
  "whitening",
  "other",
] as const;
export type TreatmentType = (typeof TREATMENT_TYPES)[number];

export const TREATMENT_LABELS: Record<TreatmentType, string> = {
  implant: "Implant dentaire",
  crown: "Couronne",
  veneer: "Facette",
  bridge: "Bridge",
  denture: "Prothèse dentaire",
  rootcanal: "Traitement de canal",
  whitening: "Blanchiment",
  other: "Autre",
};

export function treatmentLabel(value: string | null | undefined): string {
  return (value && TREATMENT_LABELS[value as TreatmentType]) || "Autre";
}
