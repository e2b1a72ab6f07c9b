import { labelled } from "./labels";
/** Treatment types of a request (value / French label). */
export const { values: TREATMENT_TYPES, labels: TREATMENT_LABELS } = labelled({
  implant: "Implant dentaire",
  crown: "Couronne",
  veneer: "Facette",
  bridge: "Bridge",
  denture: "Prothèse dentaire",
  rootcanal: "Traitement de canal",
  whitening: "Blanchiment",
  other: "Autre",
});
export type TreatmentType = (typeof TREATMENT_TYPES)[number];

export function treatmentLabel(value: string | null | undefined): string {
  return (value && TREATMENT_LABELS[value as TreatmentType]) || "Autre";
}
