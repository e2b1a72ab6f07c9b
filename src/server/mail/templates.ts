/** French e-mails (decision D15). Plain text: readable everywhere, nothing to track. */

export function resetPasswordMail(p: { brandName: string; link: string }) {
  return {
    subject: `${p.brandName} — Réinitialisation de votre mot de passe`,
    text: [
      "Bonjour,",
      "",
      `Vous avez demandé à choisir un nouveau mot de passe pour votre compte ${p.brandName}.`,
      "Ouvrez ce lien pour le faire (il est valable une heure et ne sert qu'une fois) :",
      "",
      p.link,
      "",
      "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.",
      "",
      `L'équipe ${p.brandName}`,
    ].join("\n"),
  };
}

export function dentistReplyMail(p: {
  brandName: string;
  firstName: string;
  dentistName: string;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Un dentiste a répondu à votre demande`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `${p.dentistName} a répondu à votre demande sur ${p.brandName}.`,
      "Lisez sa réponse et continuez la conversation depuis votre espace :",
      "",
      p.link,
      "",
      `L'équipe ${p.brandName}`,
    ].join("\n"),
  };
}
