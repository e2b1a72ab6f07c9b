import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { getQueryClient } from "./queryClient";

/**
 * Gives react-query to the lazily loaded parts that use it (auth pages, signed-in areas), so
 * the landing page's initial bundle does not carry it. Every boundary shares one client.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
