/** Common dental specialties offered as toggles on the dentist profile. */
export const COMMON_SPECIALTIES = [
  "Implantologie",
  "Prothèses",
  "Orthodontie",
  "Pédodontie",
  "Endodontie",
  "Parodontie",
  "Chirurgie",
  "Esthétique",
  "Facettes",
] as const;

/** Limits of the profile schema (profileUpdateSchema). */
export const SPECIALTY_MAX_LENGTH = 60;
export const SPECIALTIES_MAX = 20;
