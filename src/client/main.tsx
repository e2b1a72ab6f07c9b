import "./styles.css";
import { hydrateIslands } from "./app/hydrateIslands";

const container = document.getElementById("root");
if (!container) throw new Error("Élément #root introuvable dans index.html");

// Public pages arrive pre-rendered (scripts/lib/client-build.mjs): only their islands are
// hydrated, without the router (ADR 027). Every other page loads and renders the whole app.
if (container.hasChildNodes()) void hydrateIslands(container);
else void import("./app/App").then(({ renderApp }) => renderApp(container));
