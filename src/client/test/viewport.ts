/**
 * Runs `test` with one media query matching (and no other), then gives jsdom back its own matchMedia.
 */
export async function withMedia(matching: string, test: () => Promise<void>): Promise<void> {
  const own = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...own(query),
    matches: query === matching,
  })) as typeof window.matchMedia;
  try {
    await test();
  } finally {
    window.matchMedia = own;
  }
}

/**
 * Runs `test` with the phone query, « (max-width: 767px) », matching (the screens that lay out
 * differently under 768 px ask it).
 */
export function onPhone(test: () => Promise<void>): Promise<void> {
  return withMedia("(max-width: 767px)", test);
}
