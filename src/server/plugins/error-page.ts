/**
 * An API address opened by the browser itself as a page — a document's « Ouvrir » link in a new tab,
 * after its request closed or the session ended — answers its error as a short French page with a way
 * back, not as the JSON the app reads. Only navigations (`Sec-Fetch-Dest: document`, or an Accept that
 * asks for HTML and not JSON); the app's own calls keep the one error shape.
 */

export function isBrowserNavigation(headers: Record<string, string | string[] | undefined>): boolean {
  const dest = headers["sec-fetch-dest"];
  if (dest !== undefined) return dest === "document";
  const accept = String(headers.accept ?? "");
  return accept.includes("text/html") && !accept.includes("application/json");
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** What the page says for an error status: a title, advice under the server's message, links. */
function wording(status: number): { title: string; advice: string; links: [string, string][] } {
  if (status === 401)
    return {
      title: "Connexion nécessaire",
      advice:
        "Votre session a pris fin. Connectez-vous, puis rouvrez ce document depuis la page de la demande.",
      links: [
        ["/login", "Connexion patient"],
        ["/dentist/login", "Connexion dentiste"],
      ],
    };
  if (status === 403 || status === 404)
    return {
      title: "Document indisponible",
      advice:
        "Ce document n'existe plus ou ne vous est plus accessible (la demande a pu être fermée ou supprimée). Revenez à votre espace pour voir où en est la demande.",
      links: [["/", "Retour à l'accueil"]],
    };
  return {
    title: "Une erreur est survenue",
    advice: "Réessayez dans quelques instants depuis la page de la demande.",
    links: [["/", "Retour à l'accueil"]],
  };
}

/** The page for an error answered with `message` (French, from our error body). */
export function errorPage(brand: string, status: number, message: string): string {
  const { title, advice, links } = wording(status);
  const items = links.map(([href, label]) => `<li><a href="${href}">${escapeHtml(label)}</a></li>`).join("");
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} — ${escapeHtml(brand)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f8fafc;margin:0;padding:2rem 1rem;line-height:1.5}
main{max-width:36rem;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:.625rem;padding:1.5rem}
h1{font-size:1.375rem;margin:0 0 .75rem}
p{margin:0 0 .75rem;color:#334155}
ul{list-style:none;padding:0;margin:1rem 0 0;display:flex;flex-wrap:wrap;gap:1rem}
a{color:#0f766e;font-weight:600}
a:focus-visible{outline:2px solid #0f766e;outline-offset:2px;border-radius:2px}
</style>
</head>
<body>
<main>
<p style="color:#0f766e;font-weight:700">${escapeHtml(brand)}</p>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p>${escapeHtml(advice)}</p>
<ul>${items}</ul>
</main>
</body>
</html>
`;
}
