// A password as a password manager generates them: printable ASCII, fixed by `seed` (a Lehmer
// generator). zxcvbn needs about a second of CPU for 128 of them (ADR 070): the bench, the password
// check's tests and the sign-up journey use it.
export function generatedPassword(length, seed) {
  let state = seed;
  return Array.from({ length }, () => {
    state = (state * 48271) % 2147483647;
    return String.fromCharCode(33 + (state % 94));
  }).join("");
}
