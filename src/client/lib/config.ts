import { useQuery } from "@tanstack/react-query";
import { api } from "./api";

export interface PublicConfig {
  brand_name: string;
  contact_email: string;
}

export const DEFAULT_CONFIG: PublicConfig = { brand_name: "Sourio", contact_email: "contact@sourio.fr" };

export const configQueryKey = ["config"] as const;

/** GET /api/config once per visit; the defaults are shown while it loads or when it fails. */
export function useConfig(): PublicConfig {
  const { data } = useQuery({
    queryKey: configQueryKey,
    queryFn: ({ signal }) => api<PublicConfig>("/api/config", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return {
    brand_name: data?.brand_name || DEFAULT_CONFIG.brand_name,
    contact_email: data?.contact_email || DEFAULT_CONFIG.contact_email,
  };
}
