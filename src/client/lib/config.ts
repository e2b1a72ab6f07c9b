import { useEffect, useSyncExternalStore } from "react";
import { api } from "./api";

export interface PublicConfig {
  brand_name: string;
  contact_email: string;
}

export const DEFAULT_CONFIG: PublicConfig = { brand_name: "Sourio", contact_email: "contact@sourio.fr" };

/*
 * GET /api/config once per visit, in a small store rather than react-query (which stays out of
 * the landing page's initial bundle). The defaults are shown while it loads or when it fails.
 */
let current: PublicConfig = DEFAULT_CONFIG;
let requested = false;
const listeners = new Set<() => void>();

function load(): void {
  if (requested) return;
  requested = true;
  api<Partial<PublicConfig>>("/api/config")
    .then((data) => {
      current = {
        brand_name: data?.brand_name || DEFAULT_CONFIG.brand_name,
        contact_email: data?.contact_email || DEFAULT_CONFIG.contact_email,
      };
      for (const listener of listeners) listener();
    })
    .catch(() => {
      // Keep the defaults; the next visit asks again.
    });
}

/** Tests only: forget the loaded configuration. */
export function resetConfigStore(): void {
  current = DEFAULT_CONFIG;
  requested = false;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => current;

export function useConfig(): PublicConfig {
  useEffect(load, []);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
