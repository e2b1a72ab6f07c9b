import { claimedPictureOrPdf, pictureOrPdfOf } from "../../shared/domain/files";

/**
 * The files whose first bytes are not the PDF, JPEG or PNG their name says (a text file renamed
 * « devis.pdf »), and the empty ones: refused when chosen, all at once, rather than by the server
 * one sending at a time. Videos and files this browser cannot read are left to the server, which
 * checks every file's content.
 */
export async function wrongContentOf(files: readonly File[]): Promise<Set<File>> {
  const wrong = new Set<File>();
  await Promise.all(
    files.map(async (file) => {
      const claimed = claimedPictureOrPdf(file.name);
      if (!claimed) return;
      if (file.size === 0) {
        wrong.add(file);
        return;
      }
      try {
        const start = new Uint8Array(await file.slice(0, 8).arrayBuffer());
        if (pictureOrPdfOf(start) !== claimed) wrong.add(file);
      } catch {
        // Unreadable here: the server decides.
      }
    }),
  );
  return wrong;
}
