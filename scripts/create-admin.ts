// npm run create-admin -- --email X --password Y
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../src/server/config";
import { setPrivateUmask } from "../src/server/files/private-dir";
import { loginSchema } from "../src/shared/schemas/account";

async function main(): Promise<number> {
  setPrivateUmask();
  const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" } } });
  const email = loginSchema.shape.email.safeParse(values.email ?? "");
  if (!email.success || !values.password || values.password.length < 6) {
    console.error(
      "Usage : npm run create-admin -- --email adresse@exemple.fr --password 'mot de passe (6 caractères au moins)'",
    );
    return 2;
  }
  const config = loadConfig({ ...process.env, ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
  // The database and the accounts' modules once the arguments and the configuration are good: a
  // refusal does not pay for their import (ADR 054).
  const [{ ensureAdmin }, { openMigratedDatabase, standaloneAuth }] = await Promise.all([
    import("../src/server/bootstrap"),
    import("../src/server/runtime"),
  ]);
  const database = await openMigratedDatabase(config);
  try {
    const outcome = await ensureAdmin(
      { db: database.db, auth: standaloneAuth(config, database) },
      email.data,
      values.password,
    );
    console.log(
      `Administrateur ${email.data} ${outcome === "created" ? "créé" : "mis à jour (droits d'administration et mot de passe)"}.`,
    );
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
