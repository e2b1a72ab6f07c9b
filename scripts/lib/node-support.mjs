// The Node.js lines Sourio supports (package.json's engines: >=22.13; .nvmrc and the image: 24).
// An older Node still runs the quick start: `npm start` only says, in one line, what to install.

/** The oldest supported version, as [major, minor]. */
export const OLDEST_SUPPORTED = [22, 13];

/**
 * One French line when `version` (process.version's form, "v20.20.2") is older than the oldest
 * supported line, else null.
 */
export function nodeSupportNotice(version = process.version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  const [oldestMajor, oldestMinor] = OLDEST_SUPPORTED;
  if (major > oldestMajor || (major === oldestMajor && minor >= oldestMinor)) return null;
  return `Node.js ${version.replace(/^v/, "")} n'est plus pris en charge : installez Node.js 24 (LTS, voir .nvmrc) ou ${oldestMajor}.${oldestMinor} au moins ; Sourio démarre quand même.`;
}
