/**
 * A text as Testing Library and jest-dom compare it: each run of spaces, the no-break ones (U+00A0,
 * U+202F before « : ; ! ? ») included, read as one plain space. For the shared messages, which keep
 * French typography, when a test looks for them on the page.
 */
export const spaced = (text: string) => text.replace(/\s+/g, " ").trim();
