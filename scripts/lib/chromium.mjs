// Finds Chromium for the browser tests; installs Debian's package when allowed (architecture.md, ADR 063).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/**
 * The full browser: what Lighthouse measures (`npm run bench`) and what the journeys fall back on.
 */
const BROWSERS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/lib/chromium/chromium",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`, the same engine without the browser's
 * windowing layer): what Playwright itself runs headless tests on. The journeys took a fifth less CPU
 * on it than on the full browser (ADR 063).
 */
const HEADLESS_SHELLS = ["/usr/bin/chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell"];

/** CHROMIUM_PATH if given (null when it does not exist), else the first of `candidates` found. */
function find(candidates) {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** The full browser, for Lighthouse. */
export function findChromium() {
  return find(BROWSERS);
}

/** The browser for the journeys: the headless shell, else the full browser. */
export function findTestChromium() {
  return find([...HEADLESS_SHELLS, ...BROWSERS]);
}

function isDebianLike() {
  try {
    return /^(ID|ID_LIKE)=.*(debian|ubuntu)/m.test(readFileSync("/etc/os-release", "utf8"));
  } catch {
    return false;
  }
}

/**
 * Returns the journeys' Chromium, installing Debian's `chromium` and `chromium-headless-shell` first
 * when there is none and this runs as root on Debian/Ubuntu.
 */
export function ensureChromium() {
  const found = findTestChromium();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) {
    console.error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} n'existe pas.`);
    return null;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && isDebianLike() && existsSync("/usr/bin/apt-get")) {
    console.log(
      "Chromium est absent : installation des paquets Debian « chromium » et « chromium-headless-shell » (apt-get)…",
    );
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    const install = spawnSync(
      "apt-get",
      ["install", "-y", "-qq", "--no-install-recommends", "chromium", "chromium-headless-shell"],
      { stdio: "inherit", env },
    );
    if (install.status === 0) return findTestChromium();
  }
  console.error(
    "Chromium est introuvable : installez-le (Debian/Ubuntu : sudo apt-get install chromium chromium-headless-shell) ou indiquez son chemin dans CHROMIUM_PATH.",
  );
  return null;
}
