import { ApiError, apiErrorFromBody, parseJsonText } from "./api";

/** The file name of a Content-Disposition header (RFC 6266: `filename*` first), or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || null;
}

/**
 * Downloads a private file through an object URL, so that a failure can be told to the person
 * instead of opening an error page. Saved under `fileName`, else the server's name, else `fallback`.
 */
export async function downloadFile(
  url: string,
  options: { fileName?: string; fallback: string },
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "NETWORK_ERROR", "Le service n'a pas pu être joint.");
  }
  if (!response.ok) {
    const data = parseJsonText(await response.text().catch(() => ""));
    throw (
      apiErrorFromBody(response.status, data) ??
      new ApiError(response.status, "HTTP_ERROR", "Une erreur est survenue.")
    );
  }
  const name =
    options.fileName ?? fileNameOf(response.headers.get("Content-Disposition")) ?? options.fallback;
  saveBlob(await response.blob(), name);
}

/** Saves what the page made (a text, a file fetched) under `name`, as the browser's download. */
export function saveBlob(blob: Blob, name: string): void {
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = name;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}

/** GET /api/documents/:id/file?disposition=attachment, saved under its name. */
export function downloadDocument(id: string, fileName: string): Promise<void> {
  return downloadFile(`/api/documents/${encodeURIComponent(id)}/file?disposition=attachment`, {
    fileName,
    fallback: fileName,
  });
}
