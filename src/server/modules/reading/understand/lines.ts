import type { Word } from "../types";

/** Words on one text line, left to right. */
export interface TextLine {
  words: Word[];
  /** Top and bottom of the line's box; `cy` its middle. */
  top: number;
  bottom: number;
  cy: number;
}

export function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const centerY = (w: Word) => w.y + w.height / 2;

/**
 * Groups words into text lines by vertical overlap. Words are taken left to right and each joins the line
 * whose running baseline (the centre of its last word) is nearest, within half the median word height: a
 * residual skew of a degree or two moves the line slowly across the page and the line follows it.
 */
export function groupLines(words: readonly Word[]): TextLine[] {
  const usable = words.filter((w) => w.text.trim() !== "" && w.height > 0);
  if (!usable.length) return [];
  const h = median(usable.map((w) => w.height)) || 1;
  const tolerance = h * 0.55;
  const sorted = [...usable].sort((a, b) => a.x - b.x || a.y - b.y);
  const lines: { words: Word[]; last: Word }[] = [];
  for (const word of sorted) {
    const cy = centerY(word);
    let best: (typeof lines)[number] | undefined;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const line of lines) {
      const last = line.last;
      const distance = Math.abs(centerY(last) - cy);
      if (distance <= tolerance && distance < bestDistance) {
        best = line;
        bestDistance = distance;
      }
    }
    if (best) {
      best.words.push(word);
      best.last = word;
    } else lines.push({ words: [word], last: word });
  }
  return lines
    .map(({ words: ws }) => {
      const top = Math.min(...ws.map((w) => w.y));
      const bottom = Math.max(...ws.map((w) => w.y + w.height));
      return { words: ws, top, bottom, cy: median(ws.map(centerY)) };
    })
    .sort((a, b) => a.cy - b.cy || (a.words[0]?.x ?? 0) - (b.words[0]?.x ?? 0));
}

export function lineText(line: TextLine): string {
  return line.words.map((w) => w.text).join(" ");
}
