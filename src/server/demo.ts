import type { Auth } from "./auth";
import { type NewAccount, systemCreateAccount } from "./bootstrap";
import type { Db } from "./db/index";

export const DEMO_PASSWORD = "sourio-demo";

/** Demo accounts (decision D4): real accounts in the database, created only on an empty embedded database. */
export const DEMO_ACCOUNTS: ReadonlyArray<NewAccount & { label: string }> = [
  {
    label: "Administrateur",
    email: "admin@demo.sourio.fr",
    password: DEMO_PASSWORD,
    role: "patient",
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
    isVerified: true,
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
    isVerified: true,
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

/** Seeds the demo accounts when the database has no account at all. Returns true when it did. */
export async function seedDemoData(deps: { db: Db; auth: Auth }): Promise<boolean> {
  const any = await deps.db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  for (const account of DEMO_ACCOUNTS) await systemCreateAccount(deps, account);
  return true;
}

export function demoLoginsText(publicUrl: string): string {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.label.length));
  return [
    `Comptes de démonstration (mot de passe commun : ${DEMO_PASSWORD}) :`,
    ...DEMO_ACCOUNTS.map((a) => `  ${a.label.padEnd(width)}  ${a.email}`),
    `Connexion : ${publicUrl}/login (patients), ${publicUrl}/dentist/login, ${publicUrl}/admin/login`,
  ].join("\n");
}
