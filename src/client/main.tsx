import "./styles.css";
import { hydrateIslands } from "./app/hydrateIslands";

const container = document.getElementById("root");
if (!container) throw new Error("Élément #root introuvable dans index.html");

// Public pages arrive pre-rendered (scripts/lib/client-build.mjs): only their islands are
// hydrated, without the router (ADR 027). Every other page loads and renders the whole app.
if (!container.hasChildNodes()) void import("./app/App").then(({ renderApp }) => renderApp(container));
else if (document.visibilityState === "hidden") void hydrateIslands(container);
// The page's first frame (its text, the hero's poster) is painted before any island's code is asked
// for: a frame, then a task (ADR 053, its addendum). A hidden tab paints no frame: at once, above.
else requestAnimationFrame(() => setTimeout(() => void hydrateIslands(container), 0));
