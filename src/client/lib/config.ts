import { useEffect, useSyncExternalStore } from "react";
import type { PlanPriceDto } from "../../shared/schemas/billing";
import { api } from "./api";
import { createStore } from "./store";

export interface PublicConfig {
  brand_name: string;
  contact_email: string;
  /**
   * The dentists' plans at the server's prices: null until /api/config has answered (and in the
   * pre-rendered HTML), [] when it could not be read. Never written in the client: a price shown is
   * the one the server charges.
   */
  plans: PlanPriceDto[] | null;
}

export const DEFAULT_CONFIG: PublicConfig = {
  brand_name: "Sourio",
  contact_email: "contact@sourio.fr",
  plans: null,
};

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
        plans: Array.isArray(data?.plans) ? data.plans : [],
      });
    })
    .catch(() => {
      // Keep the defaults (no prices known); the next visit asks again.
      store.set({ ...store.get(), plans: [] });
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

/**
 * The plans alone, for an island of a pre-rendered page: null while hydrating (what the pre-render
 * wrote), whatever the store already holds, then the server's.
 */
export function usePlans(): PlanPriceDto[] | null {
  useEffect(load, []);
  return useSyncExternalStore(
    store.subscribe,
    () => store.get().plans,
    () => null,
  );
}
