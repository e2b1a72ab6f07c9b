import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { PASSWORD_MESSAGES } from "../../../shared/password";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account";
import { TWO_FACTOR_MESSAGES } from "../../../shared/schemas/twoFactor";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";

type User = ReturnType<typeof userEvent.setup>;

/** Fills the patient sign-up form (the page may still be loading: the first field is awaited). */
async function fillPatientSignUp(
  user: User,
  fields: { first: string; last: string; email: string; password: string },
) {
  await user.type(await screen.findByLabelText(/^Prénom/), fields.first);
  await user.type(screen.getByLabelText(/^Nom/), fields.last);
  await user.type(screen.getByLabelText(/^E-mail/), fields.email);
  await user.type(screen.getByLabelText(/^Mot de passe/), fields.password);
}

/** Fills Dr Paul Martin's sign-up (Lyon), with this password confirmation. */
async function fillDentistSignUp(user: User, confirmation: string) {
  await user.type(await screen.findByLabelText(/^Prénom/), "Paul");
  await user.type(screen.getByLabelText(/^Nom/), "Martin");
  await user.type(screen.getByLabelText(/^Ville/), "Lyon");
  await user.type(screen.getByLabelText(/^Téléphone/), "0601020304");
  await user.type(screen.getByLabelText(/^E-mail/), "dr@example.fr");
  await user.type(screen.getByLabelText(/^Mot de passe/), "Sourire-Sain-2026");
  await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), confirmation);
}

const acceptTerms = (user: User) =>
  user.click(screen.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ }));

/** Marie Curie signs up on /signup with a valid form, the terms accepted. */
async function signUpMarie() {
  const user = userEvent.setup();
  renderApp("/signup");
  const fields = { first: "Marie", last: "Curie", email: "marie@example.fr", password: "Sourire-Sain-2026" };
  await fillPatientSignUp(user, fields);
  await acceptTerms(user);
  await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
}

/** The body of the sign-up call, or undefined when the form did not call the server. */
function signUpBody(fetchMock: ReturnType<typeof stubApi>): unknown {
  const call = fetchMock.mock.calls.find(([url]) => String(url) === "/api/account/signup");
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

describe("login form", () => {
  it("shows 'E-mail ou mot de passe incorrect' and a toast on a 401", async () => {
    const fetchMock = stubApi(null, {
      "POST /api/account/login": () =>
        json(401, { error: { code: "INVALID_CREDENTIALS", message: "E-mail ou mot de passe incorrect" } }),
    });
    const user = userEvent.setup();
    renderApp("/login");

    await user.type(await screen.findByLabelText(/^E-mail/), "marie@example.fr");
    await user.type(screen.getByLabelText(/^Mot de passe/), "mauvais-mot-de-passe");
    await user.click(screen.getByRole("checkbox", { name: "Se souvenir de moi" }));
    await user.click(screen.getByRole("button", { name: "Se connecter" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("E-mail ou mot de passe incorrect");
    expect(await screen.findByText("Échec de connexion")).toBeInTheDocument();
    expect(screen.getByText("Vérifiez vos identifiants et réessayez.")).toBeInTheDocument();
    const loginCall = fetchMock.mock.calls.find(([url]) => String(url) === "/api/account/login");
    expect(JSON.parse(String(loginCall?.[1]?.body))).toEqual({
      email: "marie@example.fr",
      password: "mauvais-mot-de-passe",
      remember_me: true,
    });
  });

  it("takes the failure's toast away once signed in, and shows one for two failures", async () => {
    let attempts = 0;
    stubApi(null, {
      "POST /api/account/login": () => {
        attempts += 1;
        return attempts < 3
          ? json(401, { error: { code: "INVALID_CREDENTIALS", message: "E-mail ou mot de passe incorrect" } })
          : json(200, { profile: makeProfile() });
      },
    });
    const user = userEvent.setup();
    renderApp("/login");
    await user.type(await screen.findByLabelText(/^E-mail/), "marie@example.fr");
    for (const password of ["mauvais-1", "mauvais-2"]) {
      await user.clear(screen.getByLabelText(/^Mot de passe/));
      await user.type(screen.getByLabelText(/^Mot de passe/), password);
      await user.click(screen.getByRole("button", { name: "Se connecter" }));
      await waitFor(() => expect(attempts).toBeGreaterThan(password === "mauvais-1" ? 0 : 1));
      await screen.findByText("Échec de connexion");
    }
    expect(screen.getAllByText("Échec de connexion")).toHaveLength(1);
    await user.clear(screen.getByLabelText(/^Mot de passe/));
    await user.type(screen.getByLabelText(/^Mot de passe/), "le-bon-mot-de-passe");
    await user.click(screen.getByRole("button", { name: "Se connecter" }));
    expect(await screen.findByText("Connexion réussie")).toBeInTheDocument();
    // Gone at once, not at the end of its 5 seconds (the last failure was a moment ago).
    await waitFor(() => expect(screen.queryByText("Échec de connexion")).not.toBeInTheDocument(), {
      timeout: 3000,
    });
  });

  it("says on the form, not as a wrong password, that the account is suspended (403, ADR 092)", async () => {
    stubApi(null, {
      "POST /api/account/login": () =>
        json(403, { error: { code: "ACCOUNT_SUSPENDED", message: ACCOUNT_MESSAGES.suspended } }),
    });
    const user = userEvent.setup();
    renderApp("/login");

    await user.type(await screen.findByLabelText(/^E-mail/), "marie@example.fr");
    await user.type(screen.getByLabelText(/^Mot de passe/), "Sourire-Sain-2026");
    await user.click(screen.getByRole("button", { name: "Se connecter" }));

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent(/Ce compte est suspendu\s:/);
    // The contact form it names, one click away.
    expect(within(alert).getByRole("link", { name: "Ouvrir le formulaire de contact" })).toHaveAttribute(
      "href",
      "/contact",
    );
    expect(screen.queryByText("E-mail ou mot de passe incorrect")).not.toBeInTheDocument();
    expect(screen.queryByText(ACCOUNT_MESSAGES.loginUnexpected)).not.toBeInTheDocument();
  });

  it("goes to the dashboard of the signed-in role after a successful login", async () => {
    stubApi(null, {
      "POST /api/account/login": () =>
        json(200, {
          profile: makeProfile({
            id: "d1",
            email: "dr@example.fr",
            role: "dentist",
            first_name: "Paul",
            last_name: "Martin",
            full_name: "Paul Martin",
            city: "Lyon",
          }),
        }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/dentist/login");
    await user.type(await screen.findByLabelText(/^E-mail/), "dr@example.fr");
    // The sign-up offer does not agree with the reader's gender (glossary): no « Pas encore inscrit ».
    expect(screen.getByRole("link", { name: "Inscription Dentiste" }).parentElement).toHaveTextContent(
      /^Pas encore de compte\s\?/,
    );
    await user.type(screen.getByLabelText(/^Mot de passe/), "Sourire-Sain-2026");
    await user.click(screen.getByRole("button", { name: "Se connecter" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Bonjour Paul" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dentist/dashboard");
    // The card of an unverified dentist (the practice status may say it too, once the dashboard answers).
    expect(screen.getByRole("heading", { level: 2, name: "En attente de vérification" })).toBeInTheDocument();
  });
});

describe("patient sign-up", () => {
  it("refuses blank trimmed names and a short password without calling the server", async () => {
    const fetchMock = stubApi(null);
    const user = userEvent.setup();
    renderApp("/signup");

    await fillPatientSignUp(user, { first: "   ", last: "  ", email: "marie@example.fr", password: "12345" });
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));

    expect(await screen.findAllByText("Veuillez remplir tous les champs")).toHaveLength(2);
    // Beside the field only: the strength meter under it does not say it a second time.
    expect(screen.getAllByText("Le mot de passe doit contenir au moins 8 caractères")).toHaveLength(1);
    expect(screen.getByLabelText(/^Mot de passe/)).toHaveAccessibleDescription(
      /^Le mot de passe doit contenir au moins 8 caractères Robustesse du mot de passe\s: Trop faible$/,
    );
    expect(screen.getByLabelText(/^Prénom/)).toHaveAttribute("aria-invalid", "true");
    expect(signUpBody(fetchMock)).toBeUndefined();
  });

  it("focuses Prénom, the first invalid field as the page shows them, after an empty submit", async () => {
    stubApi(null);
    const user = userEvent.setup();
    renderApp("/signup");
    await user.click(await screen.findByRole("button", { name: "Créer mon compte" }));
    expect(await screen.findAllByText("Veuillez remplir tous les champs")).toHaveLength(2);
    expect(screen.getByLabelText(/^Mot de passe/)).toHaveAttribute("aria-invalid", "true");
    expect(document.activeElement).toBe(screen.getByLabelText(/^Prénom/));

    // Prénom given: the next invalid one in the page's order, Nom.
    await user.type(screen.getByLabelText(/^Prénom/), "Marie");
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Nom/)));
  });

  it("focuses the terms checkbox when it is the only field left to correct", async () => {
    const fetchMock = stubApi(null);
    const user = userEvent.setup();
    renderApp("/signup");
    await fillPatientSignUp(user, {
      first: "Marie",
      last: "Curie",
      email: "marie@example.fr",
      password: "Sourire-Sain-2026",
    });
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
    const terms = screen.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ });
    await waitFor(() => expect(terms).toHaveFocus());
    expect(terms).toHaveAttribute("aria-invalid", "true");
    expect(terms).toHaveAccessibleDescription(ACCOUNT_MESSAGES.patientTermsRequired);
    expect(signUpBody(fetchMock)).toBeUndefined();
  });

  it("shows 'Cet e-mail est déjà utilisé' beside the e-mail on a 409", async () => {
    stubApi(null, {
      "POST /api/account/signup": () =>
        json(409, { error: { code: "EMAIL_TAKEN", message: "Cet e-mail est déjà utilisé" } }),
    });
    await signUpMarie();
    expect(await screen.findByText("Cet e-mail est déjà utilisé")).toBeInTheDocument();
    expect(screen.getByLabelText(/^E-mail/)).toHaveAttribute("aria-invalid", "true");
    // The account may be hers (a first answer lost): the toast says how to get in, not « vérifiez ».
    expect(await screen.findByText(spaced(ACCOUNT_MESSAGES.emailTakenHint))).toBeInTheDocument();
    expect(screen.queryByText("Vérifiez le formulaire et réessayez.")).not.toBeInTheDocument();
  });

  it("shows the 'Problème de connexion' alert when the service cannot be reached", async () => {
    stubApi(null, {
      "POST /api/account/signup": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await signUpMarie();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Problème de connexion");
    expect(alert).toHaveTextContent(
      "Problème de connexion au service d'authentification. Veuillez réessayer plus tard.",
    );
    // The toast says the same, never that the form is wrong.
    expect(await screen.findByText("Erreur d'inscription")).toBeInTheDocument();
    expect(screen.queryByText("Vérifiez le formulaire et réessayez.")).not.toBeInTheDocument();
  });
});

describe("dentist sign-up", () => {
  it("shows the confirmation and terms messages", async () => {
    const fetchMock = stubApi(null);
    const user = userEvent.setup();
    renderApp("/dentist/signup");

    await fillDentistSignUp(user, "Sourire-Sain-2027");
    await user.click(screen.getByRole("button", { name: "Créer mon compte dentiste" }));

    expect(await screen.findByText("Vous devez accepter les conditions d'utilisation")).toBeInTheDocument();

    await acceptTerms(user);
    await user.click(screen.getByRole("button", { name: "Créer mon compte dentiste" }));
    expect(await screen.findByText("Les mots de passe ne correspondent pas")).toBeInTheDocument();
    expect(screen.queryByText("Vous devez accepter les conditions d'utilisation")).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Confirmer le mot de passe/)).toHaveAttribute("aria-invalid", "true");
    expect(signUpBody(fetchMock)).toBeUndefined();
  });

  it("focuses the terms checkbox when it is the only field left to correct", async () => {
    stubApi(null);
    const user = userEvent.setup();
    renderApp("/dentist/signup");
    await fillDentistSignUp(user, "Sourire-Sain-2026");
    await user.click(screen.getByRole("button", { name: "Créer mon compte dentiste" }));
    const terms = screen.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ });
    await waitFor(() => expect(terms).toHaveFocus());
    expect(terms).toHaveAccessibleDescription(ACCOUNT_MESSAGES.termsRequired);
  });

  it("focuses Prénom, not Ville, after an empty submit", async () => {
    stubApi(null);
    const user = userEvent.setup();
    renderApp("/dentist/signup");
    await user.click(await screen.findByRole("button", { name: "Créer mon compte dentiste" }));
    expect(await screen.findAllByText("Veuillez remplir tous les champs obligatoires")).toHaveLength(4);
    expect(screen.getByLabelText(/^Ville/)).toHaveAttribute("aria-invalid", "true");
    expect(document.activeElement).toBe(screen.getByLabelText(/^Prénom/));
  });

  it("refuses a phone number that is not one, beside Téléphone, without calling the server", async () => {
    const fetchMock = stubApi(null);
    const user = userEvent.setup();
    renderApp("/dentist/signup");
    await user.type(await screen.findByLabelText(/^Prénom/), "Paul");
    await user.type(screen.getByLabelText(/^Nom/), "Martin");
    await user.type(screen.getByLabelText(/^Ville/), "Lyon");
    await user.type(screen.getByLabelText(/^Téléphone/), "abc");
    await user.type(screen.getByLabelText(/^E-mail/), "dr@example.fr");
    await user.type(screen.getByLabelText(/^Mot de passe/), "Sourire-Sain-2026");
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), "Sourire-Sain-2026");
    await acceptTerms(user);
    await user.click(screen.getByRole("button", { name: "Créer mon compte dentiste" }));

    const phone = screen.getByLabelText(/^Téléphone/);
    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription("Ce numéro de téléphone n'est pas valide."),
    );
    expect(phone).toHaveAttribute("aria-invalid", "true");
    expect(document.activeElement).toBe(phone);
    expect(signUpBody(fetchMock)).toBeUndefined();

    // A French number written with spaces is one.
    await user.clear(phone);
    await user.type(phone, "04 72 00 00 00");
    await user.click(screen.getByRole("button", { name: "Créer mon compte dentiste" }));
    await waitFor(() => expect(signUpBody(fetchMock)).toMatchObject({ phone_number: "04 72 00 00 00" }));
  });

  it("sends the sign-up once the terms are accepted", async () => {
    const fetchMock = stubApi(null, {
      "POST /api/account/signup": () => json(500, { error: { code: "INTERNAL_ERROR", message: "Erreur" } }),
    });
    const user = userEvent.setup();
    renderApp("/dentist/signup");
    await fillDentistSignUp(user, "Sourire-Sain-2026");
    await acceptTerms(user);
    await user.click(screen.getByRole("button", { name: "Créer mon compte dentiste" }));
    await waitFor(() => expect(signUpBody(fetchMock)).toBeDefined());
    expect(signUpBody(fetchMock)).toMatchObject({
      role: "dentist",
      accept_terms: true,
      city: "Lyon",
    });
    expect(await screen.findByText("Une erreur s'est produite lors de l'inscription")).toBeInTheDocument();
  });
});

const patientProfile = makeProfile({
  id: "p1",
  email: "ines@example.fr",
  first_name: "Inès",
  last_name: "Moreau",
  full_name: "Inès Moreau",
});

/** Inès Moreau's sign-up fields, but the password. */
const INES = { first: "Inès", last: "Moreau", email: "ines@example.fr" };

describe("patient sign-up: consent, password rule and intent", () => {
  it("requires the consent, with links to the terms and the privacy policy in a new tab", async () => {
    const fetchMock = stubApi(null);
    const user = userEvent.setup();
    renderApp("/signup");
    await fillPatientSignUp(user, { ...INES, password: "Sourire-Sain-2026" });
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
    expect(
      await screen.findByText(
        "Veuillez accepter les conditions d'utilisation et la politique de confidentialité pour créer votre compte",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /conditions d'utilisation/ })).toHaveAttribute("href", "/terms");
    expect(screen.getByRole("link", { name: /conditions d'utilisation/ })).toHaveAttribute(
      "target",
      "_blank",
    );
    expect(screen.getByRole("link", { name: /politique de confidentialité/ })).toHaveAttribute(
      "href",
      "/privacy",
    );
    expect(signUpBody(fetchMock)).toBeUndefined();
  });

  it("refuses a password with too few kinds of characters, in French, without calling the server", async () => {
    const fetchMock = stubApi(null);
    const user = userEvent.setup();
    renderApp("/signup");
    await fillPatientSignUp(user, { ...INES, password: "sourire123" });
    await acceptTerms(user);
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
    expect(
      await screen.findAllByText(/doit mélanger 3 types de caractères parmi minuscules, majuscules/),
    ).not.toHaveLength(0);
    expect(screen.getByLabelText(/^Mot de passe/)).toHaveAttribute("aria-invalid", "true");
    expect(signUpBody(fetchMock)).toBeUndefined();
  });

  it("keeps the intent: sign-up from /signup?next=/patient/upload lands on the upload form", async () => {
    const fetchMock = stubApi(null, {
      "POST /api/account/signup": () => json(201, { profile: patientProfile }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/signup?next=%2Fpatient%2Fupload");
    expect(await screen.findByRole("link", { name: "Se connecter" })).toHaveAttribute(
      "href",
      "/login?next=%2Fpatient%2Fupload",
    );
    await fillPatientSignUp(user, { ...INES, password: "Sourire-Sain-2026" });
    await acceptTerms(user);
    await user.click(screen.getByRole("button", { name: "Créer mon compte" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/upload"));
    expect(signUpBody(fetchMock)).toMatchObject({ role: "patient", accept_terms: true });
  });

  it("the login page sends a visitor with an intent to the patient sign-up, not to the role choice", async () => {
    stubApi(null);
    renderApp("/login?next=%2Fpatient%2Fupload");
    const main = await screen.findByRole("main");
    expect(await within(main).findByRole("link", { name: "Créer un compte" })).toHaveAttribute(
      "href",
      "/signup?next=%2Fpatient%2Fupload",
    );
  });
});

describe("login: two-step sign-in (ADR 098)", () => {
  /** Ines signs in with the right password on /login?next=/patient/upload: the server asks a code (202). */
  async function signInAskingCode(user: User) {
    await user.type(await screen.findByLabelText(/^E-mail/), "ines@example.fr");
    await user.type(screen.getByLabelText(/^Mot de passe/), "Sourire-Sain-2026");
    await user.click(screen.getByRole("button", { name: "Se connecter" }));
    return screen.findByLabelText(/^Code de vérification/);
  }
  const codeCalls = (fetchMock: ReturnType<typeof stubApi>) =>
    fetchMock.mock.calls
      .filter(([url]) => String(url) === "/api/account/login/code")
      .map(([, init]) => JSON.parse(String(init?.body)));

  it("asks the app's code after a right password, shows a wrong code under the field, then signs in as a login does", async () => {
    let attempts = 0;
    const fetchMock = stubApi(null, {
      "POST /api/account/login": () => json(202, { second_factor: true }),
      "POST /api/account/login/code": () => {
        attempts += 1;
        return attempts === 1
          ? json(400, {
              error: {
                code: "VALIDATION_ERROR",
                message: TWO_FACTOR_MESSAGES.codeWrong,
                fields: { code: TWO_FACTOR_MESSAGES.codeWrong },
              },
            })
          : json(200, { profile: patientProfile });
      },
    });
    const user = userEvent.setup();
    const { router } = renderApp("/login?next=%2Fpatient%2Fupload");
    const code = await signInAskingCode(user);

    // The same card, its title kept, now asking the code; the focus is on the field.
    expect(screen.getByRole("heading", { level: 1, name: "Connexion" })).toBeInTheDocument();
    expect(
      screen.getByText("Saisissez le code à 6 chiffres affiché par votre application d'authentification."),
    ).toBeInTheDocument();
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toHaveAccessibleDescription(
      /^Vous n'avez plus votre téléphone\s\? Saisissez un de vos codes de secours à la place\. Utiliser un code de secours$/,
    );
    expect(screen.queryByLabelText(/^Mot de passe/)).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");

    // A code of the wrong shape is refused before anything is sent.
    await user.type(code, "12345");
    await user.click(screen.getByRole("button", { name: "Valider" }));
    await waitFor(() => expect(code).toHaveAttribute("aria-invalid", "true"));
    expect(code).toHaveAccessibleDescription(expect.stringContaining(TWO_FACTOR_MESSAGES.codeInvalidFormat));
    expect(codeCalls(fetchMock)).toEqual([]);

    // The app's code as it shows it (« 123 456 »), this device trusted: the server says it is wrong.
    await user.clear(code);
    await user.type(code, "123 456");
    await user.click(
      screen.getByRole("checkbox", { name: "Ne plus demander de code sur cet appareil pendant 30 jours" }),
    );
    await user.click(screen.getByRole("button", { name: "Valider" }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription(expect.stringContaining(TWO_FACTOR_MESSAGES.codeWrong)),
    );
    expect(code).toHaveFocus();
    expect(codeCalls(fetchMock)).toEqual([{ code: "123456", trust_device: true }]);

    // A recovery code (letters: the phone's keyboard is no longer the digits' pad), typed without
    // its dash, signs in: the intent is kept, as after a login.
    await user.click(screen.getByRole("button", { name: "Utiliser un code de secours" }));
    expect(code).toHaveAccessibleName(/^Code de secours/);
    expect(code).toHaveAttribute("inputmode", "text");
    expect(code).toHaveFocus();
    await user.clear(code);
    await user.type(code, "ABCDE12345");
    await user.click(screen.getByRole("button", { name: "Valider" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/patient/upload"));
    expect(await screen.findByText("Connexion réussie")).toBeInTheDocument();
    expect(codeCalls(fetchMock)[1]).toEqual({ code: "ABCDE-12345", trust_device: true });
  });

  it("starts again from the password when the sign-in expired (401), and on « Revenir à la connexion »", async () => {
    const fetchMock = stubApi(null, {
      "POST /api/account/login": () => json(202, { second_factor: true }),
      "POST /api/account/login/code": () =>
        json(401, { error: { code: "SECOND_FACTOR_EXPIRED", message: TWO_FACTOR_MESSAGES.expired } }),
    });
    const user = userEvent.setup();
    renderApp("/login");
    await user.type(await signInAskingCode(user), "123456");
    await user.click(screen.getByRole("button", { name: "Valider" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(spaced(TWO_FACTOR_MESSAGES.expired));
    expect(screen.queryByLabelText(/^Code de vérification/)).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^E-mail/)).toHaveValue("ines@example.fr");
    const password = screen.getByLabelText(/^Mot de passe/);
    expect(password).toHaveValue("");
    expect(password).toHaveFocus();
    expect(codeCalls(fetchMock)).toEqual([{ code: "123456", trust_device: false }]);

    // The link goes back too, without a message (the address is still there).
    await user.type(password, "Sourire-Sain-2026");
    await user.click(screen.getByRole("button", { name: "Se connecter" }));
    await screen.findByLabelText(/^Code de vérification/);
    await user.click(screen.getByRole("button", { name: "Revenir à la connexion" }));
    expect(await screen.findByLabelText(/^Mot de passe/)).toHaveValue("");
    expect(screen.getByLabelText(/^Mot de passe/)).toHaveFocus();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Se connecter" })).toBeInTheDocument();
  });

  it("says on the code form that the account is locked for 15 minutes (429)", async () => {
    stubApi(null, {
      "POST /api/account/login": () => json(202, { second_factor: true }),
      "POST /api/account/login/code": () =>
        json(429, { error: { code: "TOO_MANY_REQUESTS", message: TWO_FACTOR_MESSAGES.locked } }),
    });
    const user = userEvent.setup();
    renderApp("/dentist/login");
    const code = await signInAskingCode(user);
    await user.type(code, "123456");
    await user.click(screen.getByRole("button", { name: "Valider" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(spaced(TWO_FACTOR_MESSAGES.locked));
    expect(screen.getByLabelText(/^Code de vérification/)).toBeInTheDocument();
  });
});

describe("reset password", () => {
  const checks = (fetchMock: ReturnType<typeof stubApi>) =>
    fetchMock.mock.calls
      .filter(([url]) => String(url) === "/api/account/reset-password/check")
      .map(([, init]) => JSON.parse(String(init?.body)));

  it("says a used or expired link is void as soon as its page opens, before any password is typed", async () => {
    const fetchMock = stubApi(null, {
      "POST /api/account/reset-password/check": () => json(200, { valid: false }),
    });
    renderApp("/reset-password?token=d3ja-utilise&area=dentist");
    expect(await screen.findByText("Lien invalide")).toBeInTheDocument();
    expect(screen.getByText(ACCOUNT_MESSAGES.resetInvalid)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Faire une nouvelle demande" })).toHaveAttribute(
      "href",
      "/dentist/forgot-password",
    );
    expect(screen.queryByLabelText(/^Nouveau mot de passe/)).not.toBeInTheDocument();
    expect(checks(fetchMock)).toEqual([{ token: "d3ja-utilise" }]);
  });

  it("shows the form for a live link, and also when the link cannot be checked (the server says it at the end)", async () => {
    for (const answer of [
      json(200, { valid: true }),
      json(500, { error: { code: "INTERNAL", message: "Erreur" } }),
    ]) {
      const fetchMock = stubApi(null, { "POST /api/account/reset-password/check": () => answer });
      const { unmount } = renderApp("/reset-password?token=t0ken");
      expect(await screen.findByLabelText(/^Nouveau mot de passe/)).toBeInTheDocument();
      expect(screen.queryByText("Lien invalide")).not.toBeInTheDocument();
      expect(checks(fetchMock)).toEqual([{ token: "t0ken" }]);
      unmount();
    }
  });

  it("says the length rule once, beside the field, not again in the meter", async () => {
    const fetchMock = stubApi(null, {
      "POST /api/account/reset-password/check": () => json(200, { valid: true }),
    });
    const user = userEvent.setup();
    renderApp("/reset-password?token=t0ken");
    await user.type(await screen.findByLabelText(/^Nouveau mot de passe/), "abc");
    await user.type(screen.getByLabelText(/^Confirmer le mot de passe/), "abc");
    // Before the submit, the meter says what the password lacks.
    expect(
      within(screen.getByTestId("password-strength")).getByText(PASSWORD_MESSAGES.tooShort),
    ).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Modifier le mot de passe" }));

    await waitFor(() =>
      expect(screen.getByLabelText(/^Nouveau mot de passe/)).toHaveAttribute("aria-invalid", "true"),
    );
    expect(screen.getAllByText(PASSWORD_MESSAGES.tooShort)).toHaveLength(1);
    expect(screen.getByTestId("password-strength")).toHaveTextContent(
      /^Robustesse du mot de passe\s: Trop faible$/,
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url) === "/api/account/reset-password")).toBe(false);
  });
});

describe("password strength meter", () => {
  it("says in text how strong the password is and what it lacks, and flags common passwords", async () => {
    stubApi(null);
    const user = userEvent.setup();
    renderApp("/signup");
    const password = await screen.findByLabelText(/^Mot de passe/);
    expect(screen.getByText(/Au moins 8 caractères avec 3 types/)).toBeInTheDocument();
    expect(screen.getByText(/Un mot de passe courant ou facile à deviner est refusé\./)).toBeInTheDocument();
    await user.type(password, "abc");
    expect(await screen.findByText("Trop faible")).toBeInTheDocument();
    expect(screen.getByText("Le mot de passe doit contenir au moins 8 caractères")).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, "Password1!");
    // The dictionaries load lazily; then the common password is named as such.
    expect(
      await within(screen.getByTestId("password-strength")).findByText(
        /trop courant ou trop facile à deviner/,
        {},
        { timeout: 20_000 },
      ),
    ).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, "Sourire-Sain-2026");
    expect(await screen.findByText("Très robuste")).toBeInTheDocument();
    expect(password.getAttribute("aria-describedby")).toContain(screen.getByTestId("password-strength").id);
  });
});
