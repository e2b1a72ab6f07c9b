/**
 * A file's size in Mo with a French decimal comma ("1,4 Mo"); a file under 0,05 Mo reads "< 0,1 Mo"
 * rather than "0,0 Mo", which would look empty.
 */
export function formatFileSize(bytes: number): string {
  if (bytes < 0.05 * 1024 * 1024) return "< 0,1 Mo";
  const megabytes = bytes / (1024 * 1024);
  return `${megabytes.toLocaleString("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} Mo`;
}
