import { addDays } from "../../shared/policies/offers";
import type { NewAccount } from "../bootstrap";
import type { Db } from "../db/index";

export const DEMO_PASSWORD = "sourio-demo";

/**
 * The demo's appointment days ('YYYY-MM-DD'): the day itself, or the Monday after a Sunday, when the
 * demo's practices are closed (their appointments and the slots they offer).
 */
export function practiceDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).getUTCDay() === 0 ? addDays(day, 1) : day;
}

/**
 * Demo accounts: real accounts in the database, created by seedDemoData on a first start (the
 * product never shows hard-coded sample rows, only data that lives in the database).
 */
export const DEMO_ACCOUNTS: ReadonlyArray<NewAccount & { label: string }> = [
  {
    label: "Administrateur",
    email: "admin@demo.sourio.fr",
    password: DEMO_PASSWORD,
    // An administrator, not a patient (issue 13).
    role: null,
    firstName: "Claire",
    lastName: "Moreau",
    isAdmin: true,
  },
  {
    label: "Patiente",
    email: "patient@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "patient",
    firstName: "Marie",
    lastName: "Dupont",
    city: "Lyon",
    phoneNumber: "06 12 34 56 78",
  },
  {
    label: "Dentiste vérifié",
    email: "dr.martin@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "dentist",
    firstName: "Julien",
    lastName: "Martin",
    city: "Paris",
    phoneNumber: "01 42 00 00 01",
    specialties: ["Implantologie", "Prothèses"],
    bio: "Chirurgien-dentiste à Paris depuis 2009, spécialisé en implantologie et prothèses.",
  },
  {
    label: "Dentiste vérifiée",
    email: "dr.leroy@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "dentist",
    firstName: "Sophie",
    lastName: "Leroy",
    city: "Bordeaux",
    phoneNumber: "05 56 00 00 02",
    specialties: ["Orthodontie", "Esthétique", "Facettes"],
    bio: "Cabinet d'orthodontie et d'esthétique dentaire au centre de Bordeaux.",
  },
  {
    label: "Dentiste non vérifié",
    email: "dr.bernard@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "dentist",
    firstName: "Thomas",
    lastName: "Bernard",
    city: "Marseille",
    phoneNumber: "04 91 00 00 03",
  },
];

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

/**
 * The demo dentists' registration (RPPS without its key, practice): each asks to be verified, and the
 * demo administrator verifies those marked so; the unverified one's request waits in the admins'
 * queue on a fresh start.
 */
export const DEMO_PRACTICES: ReadonlyArray<{
  email: string;
  rpps: string;
  address: string;
  postcode: string;
  askedDaysAgo: number;
  verified: boolean;
}> = [
  {
    email: "dr.martin@demo.sourio.fr",
    rpps: "1000234567",
    address: "8 boulevard Haussmann",
    postcode: "75009",
    // Verified the day after: his trial ends tomorrow, and he subscribes today (demo/index.ts).
    askedDaysAgo: 30,
    verified: true,
  },
  {
    email: "dr.leroy@demo.sourio.fr",
    rpps: "1000345678",
    address: "25 cours de l'Intendance",
    postcode: "33000",
    askedDaysAgo: 28, // verified the day after: her trial ends in 3 days (issue 35)
    verified: true,
  },
  {
    email: "dr.bernard@demo.sourio.fr",
    rpps: "1000123456",
    address: "12 rue de la République",
    postcode: "13001",
    askedDaysAgo: 2,
    verified: false,
  },
];

/** What the demo seed found or did at start-up, and the demo accounts that exist after it. */
export interface DemoSeed {
  /**
   * created: seeded now; present: demo accounts were already there; skipped: the database is in
   * use (it holds requests) and has no demo account, so none is added.
   */
  outcome: "created" | "present" | "skipped";
  accounts: DemoAccount[];
}

/** The demo accounts found in the database, in DEMO_ACCOUNTS order. */
export async function existingDemoAccounts(db: Db): Promise<DemoAccount[]> {
  const rows = await db
    .selectFrom("users")
    .select("email")
    .where(
      "email",
      "in",
      DEMO_ACCOUNTS.map((a) => a.email),
    )
    .execute();
  const emails = new Set(rows.map((r) => r.email));
  return DEMO_ACCOUNTS.filter((a) => emails.has(a.email));
}

/** The console's lines about the demo after start-up: the logins only of accounts that exist. */
export function demoStartupText(seed: DemoSeed, publicUrl: string): string {
  if (seed.outcome === "skipped" || seed.accounts.length === 0)
    return "Données de démonstration non ajoutées : la base contient déjà des demandes.";
  const width = Math.max(...seed.accounts.map((a) => a.label.length));
  return [
    seed.outcome === "created"
      ? "Données de démonstration créées."
      : "Données de démonstration déjà présentes.",
    `Comptes de démonstration (mot de passe commun : ${DEMO_PASSWORD}) :`,
    ...seed.accounts.map((a) => `  ${a.label.padEnd(width)}  ${a.email}`),
    `Connexion : ${publicUrl}/login (patients), ${publicUrl}/dentist/login, ${publicUrl}/admin/login`,
  ].join("\n");
}
