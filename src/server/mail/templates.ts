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

export function offerReceivedMail(p: {
  brandName: string;
  firstName: string;
  dentistName: string;
  amount: string;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Nouvelle proposition de devis : ${p.amount}`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `${p.dentistName} vous propose un devis de ${p.amount} pour votre demande sur ${p.brandName}.`,
      "Comparez les propositions reçues et échangez avec le dentiste depuis votre espace :",
      "",
      p.link,
      "",
      `L'équipe ${p.brandName}`,
    ].join("\n"),
  };
}

export function unreadMessagesMail(p: {
  brandName: string;
  firstName: string;
  fromName: string;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Vous avez un nouveau message`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `${p.fromName} vous a écrit sur ${p.brandName} et votre message n'a pas encore été lu.`,
      "Pour des raisons de confidentialité, son contenu n'est visible que dans votre espace :",
      "",
      p.link,
      "",
      `L'équipe ${p.brandName}`,
    ].join("\n"),
  };
}

export function verificationDecisionMail(p: {
  brandName: string;
  firstName: string;
  decision: "verify" | "unverify" | "refuse";
  reason: string;
  link: string;
}) {
  const lines = {
    verify: [
      `Bonne nouvelle : votre cabinet est vérifié sur ${p.brandName}.`,
      "Vous voyez désormais les demandes des patients et pouvez leur répondre :",
    ],
    unverify: [
      `L'équipe ${p.brandName} a retiré la vérification de votre compte.`,
      "Les demandes des patients ne vous sont plus visibles. Vous pouvez vérifier votre profil ici :",
    ],
    refuse: [
      `L'équipe ${p.brandName} n'a pas pu vérifier votre cabinet pour la raison suivante :`,
      "",
      p.reason,
      "",
      "Corrigez votre profil puis demandez une nouvelle vérification :",
    ],
  }[p.decision];
  return {
    subject: `${p.brandName} — ${p.decision === "verify" ? "Votre cabinet est vérifié" : "Vérification de votre cabinet"}`,
    text: [`Bonjour ${p.firstName},`, "", ...lines, "", p.link, "", `L'équipe ${p.brandName}`].join("\n"),
  };
}
