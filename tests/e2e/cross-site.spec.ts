import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { pdfFile, postRequestViaApi, signupPatientViaApi } from "./helpers";

/**
 * Cross-site request protection (issue 13, item 2), in a real page. The app is served on
 * http://127.0.0.1:<port>; the attacker's page is served by this test on http://127.0.0.1:<other port>:
 * another ORIGIN of the SAME SITE, so Chromium does send the SameSite=Lax session cookie with its
 * form post and its `fetch(…, { credentials: "include" })` (the test checks it did). Only the server's
 * Origin / Sec-Fetch-Site check stands in the way: both must get 403 and change nothing.
 */

const ATTACK_TEXT = "Message posté depuis un autre site";

function createRequest(api: APIRequestContext): Promise<string> {
  return postRequestViaApi(api, { treatment_type: "implant", description: "Implant sur la 36." }, [
    pdfFile("devis.pdf"),
  ]);
}

/**
 * The attacker's page: a text/plain form and two credentialed `no-cors` fetches (text/plain and
 * multipart: "simple" requests, sent without a CORS preflight, as a forged request is). data-ready:
 * the fixtures' goto waits for it.
 */
function attackerPage(app: string, requestId: string): string {
  const cancel = `${app}/api/patient/requests/${requestId}/cancel`;
  return `<!doctype html>
<html lang="fr" data-ready="true"><head><meta charset="utf-8"><title>Gagnez un iPhone</title></head>
<body>
  <form id="form" method="POST" action="${cancel}" enctype="text/plain">
    <input type="hidden" name="x" value="1">
  </form>
  <button id="fetch" type="button">fetch</button>
  <button id="submit" type="button">form</button>
  <script>
    document.getElementById("submit").onclick = () => document.getElementById("form").submit();
    document.getElementById("fetch").onclick = () => {
      const data = new FormData();
      data.append("body", ${JSON.stringify(ATTACK_TEXT)});
      window.results = Promise.allSettled([
        fetch(${JSON.stringify(cancel)}, {
          method: "POST", mode: "no-cors", credentials: "include",
          headers: { "content-type": "text/plain" }, body: "x",
        }),
        fetch(${JSON.stringify(`${app}/api/support/messages`)}, {
          method: "POST", mode: "no-cors", credentials: "include", body: data,
        }),
      ]).then((all) => all.map((r) => r.status === "fulfilled" ? r.value.type : r.status));
    };
  </script>
</body></html>`;
}

let attacker: Server;
let attackerUrl = "";
let attackerHtml = "";

test.beforeAll(async () => {
  attacker = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(attackerHtml);
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

interface Sent {
  method: string;
  url: string;
  /** The headers as sent (cookies included), lower-cased. */
  headers: Record<string, string>;
  status?: number;
}

test("une page d'un autre site ne peut ni annuler une demande ni écrire à l'équipe", async ({
  page,
  baseURL,
}) => {
  const app = new URL(baseURL as string).origin;
  expect(new URL(app).hostname).toBe("127.0.0.1");
  await signupPatientViaApi(page.request);
  const requestId = await createRequest(page.request);
  attackerHtml = attackerPage(app, requestId);

  // What the browser really sends and gets, through the DevTools protocol: for no-cors requests
  // Playwright shows only provisional headers, and no response once ORB has blocked a readable one.
  const sent = new Map<string, Sent>();
  const update = (id: string, change: Partial<Sent>) =>
    sent.set(id, { method: "", url: "", headers: {}, ...sent.get(id), ...change });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.requestWillBeSent", (e) =>
    update(e.requestId, { method: e.request.method, url: e.request.url }),
  );
  cdp.on("Network.requestWillBeSentExtraInfo", (e) =>
    update(e.requestId, {
      headers: Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
    }),
  );
  cdp.on("Network.responseReceivedExtraInfo", (e) => update(e.requestId, { status: e.statusCode }));
  const postsToApp = () => [...sent.values()].filter((r) => r.method === "POST" && r.url.startsWith(app));

  // The attacker's page (another origin, same site), in the browser where the patient is signed in.
  await page.goto(attackerUrl);
  await page.getByRole("button", { name: "fetch" }).click();
  // The page itself cannot read the answers (opaque), as for any "no-cors" request.
  expect(await page.evaluate(() => (window as unknown as { results: Promise<string[]> }).results)).toEqual([
    "opaque",
    "opaque",
  ]);
  await page.getByRole("button", { name: "form" }).click();
  // The browser shows our answer to the form: the error shape with its French message.
  await expect(page.locator("body")).toContainText('"code":"CROSS_SITE"');
  await expect(page.locator("body")).toContainText("Action refusée");

  // Three POSTs left the browser WITH the session cookie (same site: SameSite=Lax lets it through)
  // and were refused, by the server's check of their Origin.
  await expect
    .poll(() => postsToApp().map((r) => [r.url.replace(app, ""), r.status]))
    .toEqual([
      [`/api/patient/requests/${requestId}/cancel`, 403],
      ["/api/support/messages", 403],
      [`/api/patient/requests/${requestId}/cancel`, 403],
    ]);
  for (const post of postsToApp()) {
    expect(post.headers.cookie ?? "", post.url).toContain("session_token");
    expect(post.headers.origin).toBe(attackerUrl);
    expect(post.headers["sec-fetch-site"]).toBe("same-site");
  }

  // Nothing changed: the request is still open, and the team received nothing.
  const detail = await page.request.get(`/api/patient/requests/${requestId}`);
  expect(detail.status()).toBe(200);
  expect(((await detail.json()) as { status: string }).status).toBe("new");
  const support = await page.request.get("/api/support/messages");
  expect(support.status()).toBe(200);
  expect(JSON.stringify(await support.json())).not.toContain(ATTACK_TEXT);

  // The same POST from the product's own page (same origin, Origin sent by the browser) works.
  await page.goto("/patient/dashboard");
  const cancelled = await page.evaluate(
    async (url) => (await fetch(url, { method: "POST", credentials: "same-origin" })).status,
    `/api/patient/requests/${requestId}/cancel`,
  );
  expect(cancelled).toBe(200);
  const after = await page.request.get(`/api/patient/requests/${requestId}`);
  expect(((await after.json()) as { status: string }).status).toBe("cancelled");
});
