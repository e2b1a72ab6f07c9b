// The bench's accounts over HTTP (scripts/bench-soak.mjs, scripts/lib/bench-throughput.mjs): a login
// or a patient's sign-up against a running server, answered by the session cookie to send back.

/** The Cookie header ("name=value; …") carrying every cookie a response sets. */
export const cookieOf = (response) =>
  (response.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");

/** Logs `email` in on `base`; the session cookie, or an error naming the account and the status. */
export async function login(base, email, password) {
  const response = await fetch(`${base}/api/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`connexion de ${email} : ${response.status}`);
  return cookieOf(response);
}

/**
 * Signs a new patient up on `base` ("Prénom Nom", an e-mail unique to this run under `emailPrefix`);
 * the session cookie, or an error with the server's answer.
 */
export async function signUpPatient(base, { firstName, lastName, emailPrefix, password }) {
  const response = await fetch(`${base}/api/account/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({
      role: "patient",
      first_name: firstName,
      last_name: lastName,
      email: `${emailPrefix}-${Date.now().toString(36)}@example.com`,
      password,
      accept_terms: true,
    }),
  });
  if (response.status !== 201) throw new Error(`inscription : ${response.status} ${await response.text()}`);
  return cookieOf(response);
}
