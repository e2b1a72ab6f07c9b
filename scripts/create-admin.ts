// npm run create-admin -- --email X --password Y [--remove-two-factor]
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../src/server/config";
import { setPrivateUmask } from "../src/server/files/private-dir";
import { loginSchema } from "../src/shared/schemas/account";

async function main(): Promise<number> {
  setPrivateUmask();
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      password: { type: "string" },
      "remove-two-factor": { type: "boolean" },
    },
  });
  const email = loginSchema.shape.email.safeParse(values.email ?? "");
  if (!email.success || !values.password || values.password.length < 6) {
    console.error(
      "Usage : npm run create-admin -- --email adresse@exemple.fr --password 'mot de passe (6 caractères au moins)' [--remove-two-factor]",
    );
    return 2;
  }
  const config = loadConfig({ ...process.env, ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
  // The database and the accounts' modules once the arguments and the configuration are good: a
  // refusal does not pay for their import (ADR 054).
  const [{ ensureAdmin, systemRemoveTwoFactor }, { openMigratedDatabase, standaloneAuth }] =
    await Promise.all([import("../src/server/bootstrap"), import("../src/server/runtime")]);
  const database = await openMigratedDatabase(config);
  try {
    const deps = { db: database.db, auth: standaloneAuth(config, database) };
    const outcome = await ensureAdmin(deps, email.data, values.password);
    console.log(
      `Administrateur ${email.data} ${outcome === "created" ? "créé" : "mis à jour (droits d'administration et mot de passe)"}.`,
    );
    if (values["remove-two-factor"]) {
      console.log(
        (await systemRemoveTwoFactor(deps, email.data))
          ? "Double authentification retirée : le mot de passe suffit pour se connecter, ses sessions sont fermées. Elle se réactive dans « Sécurité »."
          : "La double authentification n'était pas activée sur ce compte : rien d'autre n'a changé.",
      );
    }
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : `Échec : ${(error as Error).message}`);
    process.exit(1);
  },
);
