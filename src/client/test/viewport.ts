/**
 * Runs `test` with the phone query, « (max-width: 767px) », matching (the screens that lay out
 * differently under 768 px ask it), then gives jsdom back its own matchMedia.
 */
export async function onPhone(test: () => Promise<void>): Promise<void> {
  const desktop = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...desktop(query),
    matches: query === "(max-width: 767px)",
  })) as typeof window.matchMedia;
  try {
    await test();
  } finally {
    window.matchMedia = desktop;
  }
}
