import { useEffect } from "react";
import { useConfig } from "./config";

/** Sets document.title to "<page> — <brand>" (or the given full title when `full` is true). */
export function useDocumentTitle(page: string, options: { full?: boolean } = {}): void {
  const { brand_name } = useConfig();
  const title = options.full ? page : `${page} — ${brand_name}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
