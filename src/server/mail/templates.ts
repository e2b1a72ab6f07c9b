/** French e-mails. Plain text: readable everywhere, nothing to track. */

export function resetPasswordMail(p: { brandName: string; link: string }) {
  return {
    subject: `${p.brandName} — Réinitialisation de votre mot de passe`,
    text: [
      "Bonjour,",
      "",
      `Vous avez demandé à choisir un nouveau mot de passe pour votre compte ${p.brandName}.`,
      "Ouvrez ce lien pour le faire (il est valable une heure et ne sert qu'une fois) :",
      "",
      p.link,
      "",
      "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.",
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
      "Lisez sa réponse et continuez la conversation depuis votre espace :",
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
    subject: `${p.brandName} — Nouvelle proposition de devis : ${p.amount}`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `${p.dentistName} vous propose un devis de ${p.amount} pour votre demande sur ${p.brandName}.`,
      "Comparez les propositions reçues et échangez avec le dentiste depuis votre espace :",
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
      "Pour des raisons de confidentialité, son contenu n'est visible que dans votre espace :",
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
      `Bonne nouvelle : votre cabinet est vérifié sur ${p.brandName}.`,
      "Vous voyez désormais les demandes des patients et pouvez leur répondre :",
    ],
    unverify: [
      `L'équipe ${p.brandName} a retiré la vérification de votre compte.`,
      "Les demandes des patients ne vous sont plus visibles. Vous pouvez vérifier votre profil ici :",
    ],
    refuse: [
      `L'équipe ${p.brandName} n'a pas pu vérifier votre cabinet pour la raison suivante :`,
      "",
      p.reason,
      "",
      "Corrigez votre profil puis demandez une nouvelle vérification :",
    ],
  }[p.decision];
  return {
    subject: `${p.brandName} — ${p.decision === "verify" ? "Votre cabinet est vérifié" : "Vérification de votre cabinet"}`,
    text: [`Bonjour ${p.firstName},`, "", ...lines, "", p.link, "", `L'équipe ${p.brandName}`].join("\n"),
  };
}

const signature = (brandName: string) => ["", `L'équipe ${brandName}`];

/** To the dentist whose offer the patient accepted. */
export function offerAcceptedMail(p: {
  brandName: string;
  firstName: string;
  patientName: string;
  amount: string;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Votre proposition a été acceptée`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `Bonne nouvelle : ${p.patientName} a accepté votre proposition de ${p.amount}.`,
      "Le patient va vous proposer un rendez-vous ; vous le confirmerez depuis votre espace :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

/** To the other dentists of the request, politely, once the patient chose another offer. */
export function offerClosedMail(p: {
  brandName: string;
  firstName: string;
  treatment: string;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Demande de devis clôturée`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `Le patient à qui vous aviez fait une proposition (${p.treatment}) a choisi un autre cabinet.`,
      "Merci pour le temps et le soin que vous avez consacrés à sa demande : votre proposition est désormais clôturée.",
      "Vos propositions restent consultables ici :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

/** To the dentist whose accepted offer the patient no longer chooses (ADR 016): the offer stays open. */
export function acceptanceWithdrawnMail(p: {
  brandName: string;
  firstName: string;
  patientName: string;
  treatment: string;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Acceptation retirée`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `${p.patientName} a retiré son acceptation de votre proposition (${p.treatment}), avant la confirmation du rendez-vous.`,
      "Votre proposition n'est pas perdue : elle reste ouverte et peut encore être acceptée. Un rendez-vous en attente sur cette proposition est annulé.",
      "Vos propositions restent consultables ici :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

/** To a dentist whose closed offer opens again after the patient withdrew an acceptance (ADR 016). */
export function offerReopenedMail(p: {
  brandName: string;
  firstName: string;
  treatment: string;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Votre proposition est de nouveau ouverte`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `La demande (${p.treatment}) pour laquelle vous aviez fait une proposition est de nouveau ouverte : le choix qui l'avait clôturée a été retiré.`,
      "Votre proposition peut à nouveau être acceptée. Vos propositions restent consultables ici :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

/** Times proposed by one side (a booking, another time, a move) to the side who must answer. */
export function appointmentProposedMail(p: {
  brandName: string;
  firstName: string;
  fromName: string;
  times: string[];
  moved: boolean;
  link: string;
}) {
  return {
    subject: `${p.brandName} — ${p.moved ? "Nouvelle date proposée pour votre rendez-vous" : "Demande de rendez-vous"}`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      p.moved
        ? `${p.fromName} propose de fixer votre rendez-vous à une autre date :`
        : `${p.fromName} vous propose un rendez-vous :`,
      ...p.times.map((time) => `- ${time}`),
      "",
      "Choisissez le créneau qui vous convient ou proposez-en un autre depuis votre espace :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

export function appointmentConfirmedMail(p: {
  brandName: string;
  firstName: string;
  withName: string;
  when: string;
  place: string | null;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Rendez-vous confirmé le ${p.when}`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `Votre rendez-vous avec ${p.withName} est confirmé : ${p.when}.`,
      ...(p.place ? [`Adresse : ${p.place}`] : []),
      "",
      "Ajoutez-le à votre agenda ou modifiez-le depuis votre espace :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

export function appointmentCancelledMail(p: {
  brandName: string;
  firstName: string;
  byName: string;
  when: string | null;
  link: string;
}) {
  return {
    subject: `${p.brandName} — Rendez-vous annulé`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      p.when
        ? `${p.byName} a annulé le rendez-vous du ${p.when}.`
        : `${p.byName} a annulé la demande de rendez-vous en cours.`,
      "Vous pouvez en convenir d'un autre, ou lui écrire, depuis votre espace :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

/** 7 days and 1 day before a confirmed appointment. */
export function appointmentReminderMail(p: {
  brandName: string;
  firstName: string;
  withName: string;
  when: string;
  place: string | null;
  kind: "7d" | "1d";
  link: string;
}) {
  return {
    subject: `${p.brandName} — Rappel : rendez-vous ${p.kind === "1d" ? "demain" : "dans une semaine"}`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `Nous vous rappelons votre rendez-vous avec ${p.withName} : ${p.when}.`,
      ...(p.place ? [`Adresse : ${p.place}`] : []),
      "",
      "En cas d'empêchement, déplacez-le ou annulez-le depuis votre espace :",
      "",
      p.link,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

/**
 * After an in-app password change: when, from which device, and what to do if it was not the
 * person (the forgotten-password link). Never the password itself.
 */
export function passwordChangedMail(p: {
  brandName: string;
  firstName: string;
  when: string;
  device: string;
  resetLink: string;
}) {
  return {
    subject: `${p.brandName} — Votre mot de passe a été modifié`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `Le mot de passe de votre compte ${p.brandName} a été modifié le ${p.when} (${p.device}).`,
      "Par sécurité, vos autres appareils ont été déconnectés : reconnectez-vous avec le nouveau mot de passe.",
      "",
      "Si vous n'êtes pas à l'origine de ce changement, quelqu'un connaît peut-être votre mot de passe :",
      "choisissez-en tout de suite un nouveau avec ce lien ('Mot de passe oublié') :",
      "",
      p.resetLink,
      ...signature(p.brandName),
    ].join("\n"),
  };
}

export function accountErasedMail(p: { brandName: string; firstName: string }) {
  return {
    subject: `${p.brandName} — Votre compte a été supprimé`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `Votre compte ${p.brandName} a été supprimé, comme demandé : votre profil, vos demandes, vos documents,`,
      "vos messages et vos pièces jointes ont été effacés. Nous ne vous écrirons plus.",
      "",
      "Si vous n'êtes pas à l'origine de cette suppression, répondez à cet e-mail.",
      ...signature(p.brandName),
    ].join("\n"),
  };
}

export function inactivityWarningMail(p: {
  brandName: string;
  firstName: string;
  erasedOn: string;
  loginLink: string;
}) {
  return {
    subject: `${p.brandName} — Votre compte sera supprimé le ${p.erasedOn}`,
    text: [
      `Bonjour ${p.firstName},`,
      "",
      `Vous ne vous êtes pas connecté à ${p.brandName} depuis longtemps. Comme annoncé dans notre politique`,
      `de confidentialité, votre compte et vos données (demandes, documents, messages) seront supprimés le ${p.erasedOn}.`,
      "",
      "Pour garder votre compte, il suffit de vous connecter avant cette date :",
      "",
      p.loginLink,
      "",
      "Vous pouvez aussi télécharger vos données depuis votre profil avant leur suppression.",
      ...signature(p.brandName),
    ].join("\n"),
  };
}
