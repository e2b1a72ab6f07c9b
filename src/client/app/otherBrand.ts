import { api } from "../lib/api";
import { DEFAULT_CONFIG, type PublicConfig } from "../lib/config";

/**
 * Whether /api/config names another brand or contact address than the defaults the public pages
 * were pre-rendered with (hydrateIslands then renders the page again with the whole app). False
 * when the configuration cannot be read: the pre-rendered page stays.
 */
export async function isOtherBrand(): Promise<boolean> {
  let config: Partial<PublicConfig>;
  try {
    config = await api<Partial<PublicConfig>>("/api/config");
  } catch {
    return false;
  }
  const other = (key: keyof PublicConfig) => Boolean(config[key]) && config[key] !== DEFAULT_CONFIG[key];
  return other("brand_name") || other("contact_email");
}
