// Finds Chromium for the browser tests; installs Debian's package when allowed (architecture.md).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/lib/chromium/chromium",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

function isDebianLike() {
  try {
    return /^(ID|ID_LIKE)=.*(debian|ubuntu)/m.test(readFileSync("/etc/os-release", "utf8"));
  } catch {
    return false;
  }
}

/** Returns the Chromium path, installing Debian's `chromium` first when running as root on Debian/Ubuntu. */
export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) {
    console.error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} n'existe pas.`);
    return null;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && isDebianLike() && existsSync("/usr/bin/apt-get")) {
    console.log("Chromium est absent : installation du paquet Debian « chromium » (apt-get)…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    const install = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], {
      stdio: "inherit",
      env,
    });
    if (install.status === 0) return findChromium();
  }
  console.error(
    "Chromium est introuvable : installez-le (Debian/Ubuntu : sudo apt-get install chromium) ou indiquez son chemin dans CHROMIUM_PATH.",
  );
  return null;
}
