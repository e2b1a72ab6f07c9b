import { z } from "zod";
import { ROLES } from "../domain/roles";

/** A profile as the API returns it (spec §3 "profiles"). */
export const profileSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  phone_number: z.string().nullable(),
  city: z.string().nullable(),
  bio: z.string(),
  specialties: z.array(z.string()),
  avatar_url: z.string().nullable(),
  is_admin: z.boolean(),
  is_verified: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const meResponseSchema = z.object({ profile: profileSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;
