/** A password of `length` printable ASCII characters, the same for the same `seed` (1 or more). */
export function generatedPassword(length: number, seed: number): string;
