import { useEffect } from "react";
import { api } from "./api";
import { createStore } from "./store";

export interface PublicConfig {
  brand_name: string;
  contact_email: string;
}

export const DEFAULT_CONFIG: PublicConfig = { brand_name: "Sourio", contact_email: "contact@sourio.fr" };

/*
 * GET /api/config once per visit, in a small store rather than react-query (which stays out of
 * the landing page's initial bundle). The defaults are shown while it loads or when it fails.
 */
const store = createStore(DEFAULT_CONFIG);
let requested = false;

function load(): void {
  if (requested) return;
  requested = true;
  api<Partial<PublicConfig>>("/api/config")
    .then((data) => {
      store.set({
        brand_name: data?.brand_name || DEFAULT_CONFIG.brand_name,
        contact_email: data?.contact_email || DEFAULT_CONFIG.contact_email,
      });
    })
    .catch(() => {
      // Keep the defaults; the next visit asks again.
    });
}

/** Tests only: forget the loaded configuration. */
export function resetConfigStore(): void {
  store.replace(DEFAULT_CONFIG);
  requested = false;
}

export function useConfig(): PublicConfig {
  useEffect(load, []);
  return store.useValue();
}
