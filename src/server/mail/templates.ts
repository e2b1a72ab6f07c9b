/** French e-mails. Plain text: readable everywhere, nothing to track. */
import { REVIEW_LIMITS } from "../../shared/domain/reviews";
import { drName, ofName, theName, theNameAtStart } from "../../shared/format/names";

/**
 * The form every e-mail shares: the brand before its subject; 'Bonjour' (with the first name when
 * the person is known), what happened, the link to act on it and what follows it, the team's signature.
 */
function letter(
  p: { brandName: string; firstName?: string; preferencesLink?: string | undefined },
  mail: { subject: string; lines: string[]; link?: string; after?: string[] },
) {
  const greeting = p.firstName === undefined ? "Bonjour," : `Bonjour ${p.firstName},`;
  const link = mail.link === undefined ? [] : ["", mail.link];
  // An e-mail one may stop (ADR 081) says where: the profile's « Notifications ».
  const stop =
    p.preferencesLink === undefined
      ? []
      : [
          "",
          "Vous ne souhaitez plus recevoir ces e-mails ? Choisissez ceux que vous recevez dans votre profil :",
          p.preferencesLink,
        ];
  return {
    subject: `${p.brandName} — ${mail.subject}`,
    text: [
      greeting,
      "",
      ...mail.lines,
      ...link,
      ...(mail.after ?? []),
      ...stop,
      "",
      `L'équipe ${p.brandName}`,
    ].join("\n"),
  };
}

export function resetPasswordMail(p: { brandName: string; link: string }) {
  // to an address, not yet to a known person: 'Bonjour,' alone
  return letter(
    { brandName: p.brandName },
    {
      subject: "Réinitialisation de votre mot de passe",
      lines: [
        `Vous avez demandé à choisir un nouveau mot de passe pour votre compte ${p.brandName}.`,
        "Ouvrez ce lien pour le faire (il est valable une heure et ne sert qu'une fois) :",
      ],
      link: p.link,
      after: [
        "",
        "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.",
      ],
    },
  );
}

export function dentistReplyMail(p: {
  brandName: string;
  firstName: string;
  dentistName: string;
  link: string;
}) {
  return letter(p, {
    subject: "Un dentiste a répondu à votre demande",
    lines: [
      `${theNameAtStart(drName(p.dentistName))} a répondu à votre demande sur ${p.brandName}.`,
      "Lisez sa réponse et continuez la conversation depuis votre espace :",
    ],
    link: p.link,
  });
}

/** A patient's e-mail about one dentist's offer: whose, how much, the link to her request. */
interface OfferMail {
  brandName: string;
  firstName: string;
  dentistName: string;
  amount: string;
  link: string;
}

export function offerReceivedMail(p: OfferMail) {
  return letter(p, {
    subject: `Nouvelle proposition de devis : ${p.amount}`,
    lines: [
      `${theNameAtStart(drName(p.dentistName))} vous propose un devis de ${p.amount} pour votre demande sur ${p.brandName}.`,
      "Comparez les propositions reçues et échangez avec le dentiste depuis votre espace :",
    ],
    link: p.link,
  });
}

/** A dentist withdrew an offer the patient could still accept: which, and that her request stands. */
export function offerWithdrawnMail(p: OfferMail) {
  return letter(p, {
    subject: "Proposition de devis retirée",
    lines: [
      `${theNameAtStart(drName(p.dentistName))} a retiré sa proposition de devis de ${p.amount} pour votre demande sur ${p.brandName} : elle ne peut plus être acceptée.`,
      "Votre demande reste ouverte : retrouvez les autres propositions et vos échanges avec les dentistes depuis votre espace :",
    ],
    link: p.link,
  });
}

/** A dentist's requests addressed to him by name (ADR 074): how many, never what they are about. */
export function namedRequestsMail(p: { brandName: string; firstName: string; count: number; link: string }) {
  const one = p.count === 1;
  return letter(p, {
    subject: one
      ? "Un patient vous adresse sa demande de devis"
      : `${p.count} patients vous adressent leur demande de devis`,
    lines: [
      one
        ? `Un patient a choisi de vous adresser sa demande de devis sur ${p.brandName} : elle n'est envoyée qu'à vous.`
        : `${p.count} patients ont choisi de vous adresser leur demande de devis sur ${p.brandName} : elles ne sont envoyées qu'à vous.`,
      one
        ? "Pour des raisons de confidentialité, son contenu n'est visible que dans votre espace :"
        : "Pour des raisons de confidentialité, leur contenu n'est visible que dans votre espace :",
    ],
    link: p.link,
  });
}

/**
 * A dentist's morning e-mail (ADR 086): how many requests sent to all dentists since the previous
 * morning he has not opened, and how many of them come from patients near his practice (its
 * addendum), never what they are about; it says where to stop it.
 */
export function newRequestsMorningMail(p: {
  brandName: string;
  firstName: string;
  count: number;
  /** How many come from patients within `nearbyKm` of his practice; null: his practice has no point. */
  nearby: number | null;
  nearbyKm: number;
  link: string;
  preferencesLink: string;
}) {
  const one = p.count === 1;
  const nearby =
    p.nearby === null || p.nearby === 0
      ? []
      : one
        ? [`Elle vient d'un patient à ${p.nearbyKm} km ou moins de votre cabinet.`]
        : p.nearby === 1
          ? [`L'une d'elles vient d'un patient à ${p.nearbyKm} km ou moins de votre cabinet.`]
          : p.nearby === p.count
            ? [`Toutes viennent de patients à ${p.nearbyKm} km ou moins de votre cabinet.`]
            : [
                `${p.nearby} d'entre elles viennent de patients à ${p.nearbyKm} km ou moins de votre cabinet.`,
              ];
  return letter(p, {
    subject: one
      ? "Une nouvelle demande de devis attend votre réponse"
      : `${p.count} nouvelles demandes de devis attendent votre réponse`,
    lines: [
      one
        ? `Depuis hier, un patient a envoyé une demande de devis à tous les dentistes vérifiés de ${p.brandName}. Vous ne l'avez pas encore ouverte.`
        : `Depuis hier, des patients ont envoyé ${p.count} demandes de devis à tous les dentistes vérifiés de ${p.brandName}. Vous ne les avez pas encore ouvertes.`,
      ...nearby,
      one
        ? "Pour des raisons de confidentialité, son contenu n'est visible que dans votre espace :"
        : "Pour des raisons de confidentialité, leur contenu n'est visible que dans votre espace :",
    ],
    link: p.link,
  });
}

/**
 * To a patient whose chosen dentist no longer receives requests (ADR 080): nobody sees the request
 * until he does again, or until the patient sends it to every verified dentist.
 */
export function recipientAwayMail(p: {
  brandName: string;
  firstName: string;
  dentistName: string;
  count: number;
  link: string;
}) {
  const one = p.count === 1;
  return letter(p, {
    subject: `Le Dr ${p.dentistName} ne reçoit plus de nouvelles demandes`,
    lines: [
      one
        ? `Le Dr ${p.dentistName}, à qui vous avez adressé votre demande de devis, ne reçoit plus de nouvelles demandes sur ${p.brandName} pour le moment : aucun dentiste ne la voit.`
        : `Le Dr ${p.dentistName}, à qui vous avez adressé ${p.count} demandes de devis, ne reçoit plus de nouvelles demandes sur ${p.brandName} pour le moment : aucun dentiste ne les voit.`,
      one
        ? "Votre demande et vos documents restent enregistrés. Vous pouvez attendre son retour, ou envoyer votre demande à tous les dentistes vérifiés pour recevoir des propositions, depuis votre espace :"
        : "Vos demandes et vos documents restent enregistrés. Vous pouvez attendre son retour, ou envoyer vos demandes à tous les dentistes vérifiés pour recevoir des propositions, depuis votre espace :",
    ],
    link: p.link,
  });
}

export function unreadMessagesMail(p: {
  brandName: string;
  firstName: string;
  fromName: string;
  link: string;
  /** A conversation's messages (ADR 081); the team's answers always go, without it. */
  preferencesLink?: string | undefined;
}) {
  return letter(p, {
    subject: "Vous avez un nouveau message",
    lines: [
      `${p.fromName} vous a écrit sur ${p.brandName} et vous n'avez pas encore lu son message.`,
      "Pour des raisons de confidentialité, son contenu n'est visible que dans votre espace :",
    ],
    link: p.link,
  });
}

export function verificationDecisionMail(p: {
  brandName: string;
  firstName: string;
  decision: "verify" | "unverify" | "refuse";
  reason: string;
  link: string;
  /** Verified again: the reviews published about him while he was not (he was told of none). */
  reviewsMeanwhile?: { count: number; link: string };
  /** Withdrawn: his subscription, no longer renewed, ends that day (ADR 093); null when none was stopped. */
  subscriptionEndsOn?: string | null;
  /** Verified again: his paid subscription is no longer renewed, his to take up again. */
  renewalStopped?: boolean;
}) {
  const meanwhile = p.reviewsMeanwhile?.count
    ? [
        "",
        p.reviewsMeanwhile.count === 1
          ? `Un avis a été publié à votre sujet pendant que votre compte n'était pas vérifié. Vous pouvez le lire et y répondre :`
          : `${p.reviewsMeanwhile.count} avis ont été publiés à votre sujet pendant que votre compte n'était pas vérifié. Vous pouvez les lire et y répondre :`,
        "",
        p.reviewsMeanwhile.link,
      ]
    : [];
  const subscription = p.subscriptionEndsOn
    ? [
        "",
        `Votre abonnement ne sera pas renouvelé : il prend fin le ${p.subscriptionEndsOn}, et rien ne vous sera plus prélevé. Une fois votre compte de nouveau vérifié, vous pourrez le réactiver depuis la page Abonnement.`,
      ]
    : p.renewalStopped
      ? [
          "",
          "Votre abonnement n'est plus renouvelé : réactivez-le ou choisissez une formule depuis la page Abonnement.",
        ]
      : [];
  const lines = {
    verify: [
      `Bonne nouvelle : votre cabinet est vérifié sur ${p.brandName}.`,
      "Vous voyez désormais les demandes des patients et pouvez leur répondre :",
    ],
    unverify: [
      `L'équipe ${p.brandName} a retiré la vérification de votre compte pour la raison suivante :`,
      "",
      p.reason,
      "",
      "Les demandes des patients, vos conversations et vos rendez-vous avec eux et les avis à votre sujet ne vous sont plus montrés. Vos rendez-vous ne sont pas annulés : les patients concernés en sont prévenus par e-mail. Tout vous sera de nouveau montré une fois votre compte vérifié : complétez votre profil si besoin, puis demandez une nouvelle vérification ici :",
    ],
    refuse: [
      `L'équipe ${p.brandName} n'a pas pu vérifier votre cabinet pour la raison suivante :`,
      "",
      p.reason,
      "",
      "Corrigez votre profil puis demandez une nouvelle vérification :",
    ],
  }[p.decision];
  const subject = p.decision === "verify" ? "Votre cabinet est vérifié" : "Vérification de votre cabinet";
  return letter(p, { subject, lines, link: p.link, after: [...meanwhile, ...subscription] });
}

/**
 * To a person whose account the team suspended (ADR 092): the reason, what it stops, what of theirs
 * changed, and where to write.
 */
export function accountSuspendedMail(p: {
  brandName: string;
  firstName: string;
  role: "patient" | "dentist";
  reason: string;
  /** The day it is lifted by itself (ADR 092's addendum), written out; null: when the team lifts it. */
  endsOn?: string | null;
  /** Patient: her open requests cancelled with it. Dentist: whether his verification was withdrawn. */
  cancelledRequests: number;
  verificationWithdrawn: boolean;
  /** Dentist: his subscription, no longer renewed, ends that day (ADR 092); null when none was stopped. */
  subscriptionEndsOn?: string | null;
  link: string;
}) {
  const consequences =
    p.role === "patient"
      ? p.cancelledRequests === 0
        ? []
        : [
            "",
            p.cancelledRequests === 1
              ? "Votre demande en cours a été annulée ; les dentistes qui vous avaient fait une proposition en ont été informés."
              : `Vos ${p.cancelledRequests} demandes en cours ont été annulées ; les dentistes qui vous avaient fait une proposition en ont été informés.`,
          ]
      : p.verificationWithdrawn
        ? [
            "",
            "La vérification de votre cabinet est retirée : les patients ne vous voient plus et vous ne voyez plus leurs demandes.",
          ]
        : [];
  const subscription = p.subscriptionEndsOn
    ? [
        "",
        `Votre abonnement ne sera pas renouvelé : il prend fin le ${p.subscriptionEndsOn}, et rien ne vous sera plus prélevé. Si la suspension est levée, vous pourrez le réactiver depuis la page Abonnement.`,
      ]
    : [];
  return letter(p, {
    subject: "Votre compte est suspendu",
    lines: [
      `L'équipe ${p.brandName} a suspendu votre compte pour la raison suivante :`,
      "",
      p.reason,
      "",
      p.endsOn
        ? `Vous ne pouvez plus vous connecter jusqu'à la fin de la suspension, le ${p.endsOn} : ce jour-là, elle sera levée et un e-mail vous le dira. Vos données sont conservées.`
        : "Vous ne pouvez plus vous connecter. Vos données sont conservées.",
      ...consequences,
      ...subscription,
      "",
      "Pour en parler avec l'équipe, écrivez-nous depuis le formulaire de contact :",
    ],
    link: p.link,
  });
}

/**
 * To a suspended person whose suspension's end the team changed (ADR 092's addendum of 06/12): the new
 * day, or that there is none any more.
 */
export function suspensionEndChangedMail(p: {
  brandName: string;
  firstName: string;
  /** The new day it is lifted by itself, written out; null: when the team lifts it. */
  endsOn: string | null;
  link: string;
}) {
  return letter(p, {
    subject: "La fin de la suspension de votre compte a changé",
    lines: [
      p.endsOn
        ? `L'équipe ${p.brandName} a fixé la fin de la suspension de votre compte au ${p.endsOn} : ce jour-là, elle sera levée et un e-mail vous le dira.`
        : `L'équipe ${p.brandName} a retiré la date de fin de la suspension de votre compte : il reste suspendu jusqu'à ce que l'équipe le rétablisse, et un e-mail vous le dira alors.`,
      "",
      "Pour en parler avec l'équipe, écrivez-nous depuis le formulaire de contact :",
    ],
    link: p.link,
  });
}

/** To a person whose suspension the team lifted, or which ended on its day (ADR 092 and its addendum). */
export function accountReinstatedMail(p: {
  brandName: string;
  firstName: string;
  role: "patient" | "dentist";
  /** Lifted by itself on the day the team had set. */
  automatic?: boolean;
  link: string;
}) {
  return letter(p, {
    subject: "Votre compte est rétabli",
    lines: [
      p.automatic
        ? `La suspension de votre compte ${p.brandName} a pris fin : vous pouvez de nouveau vous connecter.`
        : `L'équipe ${p.brandName} a levé la suspension de votre compte : vous pouvez de nouveau vous connecter.`,
      ...(p.role === "dentist"
        ? [
            "Si la vérification de votre cabinet avait été retirée, demandez-en une nouvelle depuis votre profil.",
            "Si votre abonnement a été arrêté par la suspension, réactivez-le ou choisissez une formule depuis la page Abonnement.",
          ]
        : [
            "Si la suspension a annulé des demandes de devis, elles le restent : si vous en avez encore besoin, envoyez-en une nouvelle depuis votre espace.",
          ]),
      "",
      "Pour vous connecter :",
    ],
    link: p.link,
  });
}

/** To the dentist whose offer the patient accepted. */
export function offerAcceptedMail(p: {
  brandName: string;
  firstName: string;
  patientName: string;
  amount: string;
  link: string;
}) {
  return letter(p, {
    subject: "Votre proposition a été acceptée",
    lines: [
      `Bonne nouvelle : ${p.patientName} a accepté votre proposition de ${p.amount}.`,
      "Le patient va vous proposer un rendez-vous ; vous le confirmerez depuis votre espace :",
    ],
    link: p.link,
  });
}

/** To the other dentists of the request, politely, once the patient chose another offer or cancelled it. */
export function offerClosedMail(p: {
  brandName: string;
  firstName: string;
  treatment: string;
  link: string;
  /** Why: the patient chose another offer (by default), or cancelled the request. */
  cancelled?: boolean;
}) {
  return letter(p, {
    subject: p.cancelled ? "Demande de devis annulée" : "Demande de devis clôturée",
    lines: [
      p.cancelled
        ? `Le patient à qui vous aviez fait une proposition a annulé sa demande (${p.treatment}).`
        : `Le patient à qui vous aviez fait une proposition (${p.treatment}) a choisi un autre cabinet.`,
      "Merci pour le temps et le soin que vous avez consacrés à sa demande : votre proposition est désormais clôturée.",
      "Vos propositions restent consultables ici :",
    ],
    link: p.link,
  });
}

/** To the dentist whose accepted offer the patient no longer chooses (ADR 016): the offer stays open. */
export function acceptanceWithdrawnMail(p: {
  brandName: string;
  firstName: string;
  patientName: string;
  treatment: string;
  /** A pending appointment on it was cancelled with the acceptance; said only then. */
  appointmentCancelled: boolean;
  link: string;
}) {
  return letter(p, {
    subject: "Acceptation retirée",
    lines: [
      `${p.patientName} a retiré son acceptation de votre proposition (${p.treatment}), avant la confirmation du rendez-vous.`,
      "Votre proposition n'est pas perdue : elle reste ouverte et peut encore être acceptée.",
      ...(p.appointmentCancelled
        ? ["La demande de rendez-vous en cours sur cette proposition est annulée."]
        : []),
      "Vos propositions restent consultables ici :",
    ],
    link: p.link,
  });
}

/** To a dentist whose closed offer opens again after the patient withdrew an acceptance (ADR 016). */
export function offerReopenedMail(p: {
  brandName: string;
  firstName: string;
  treatment: string;
  link: string;
}) {
  return letter(p, {
    subject: "Votre proposition est de nouveau ouverte",
    lines: [
      `La demande (${p.treatment}) pour laquelle vous aviez fait une proposition est de nouveau ouverte : le choix qui l'avait clôturée a été retiré.`,
      "Votre proposition peut à nouveau être acceptée. Vos propositions restent consultables ici :",
    ],
    link: p.link,
  });
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
  return letter(p, {
    subject: `${p.moved ? "Nouvelle date proposée pour votre rendez-vous" : "Demande de rendez-vous"}`,
    lines: [
      p.moved
        ? `${p.fromName} propose de fixer votre rendez-vous à une autre date :`
        : `${p.fromName} vous propose un rendez-vous :`,
      ...p.times.map((time) => `- ${time}`),
      "",
      "Choisissez le créneau qui vous convient ou proposez-en un autre depuis votre espace :",
    ],
    link: p.link,
  });
}

export function appointmentConfirmedMail(p: {
  brandName: string;
  firstName: string;
  withName: string;
  when: string;
  place: string | null;
  link: string;
}) {
  return letter(p, {
    subject: `Rendez-vous confirmé le ${p.when}`,
    lines: [
      `Votre rendez-vous avec ${theName(p.withName)} est confirmé : ${p.when}.`,
      ...(p.place ? [`Adresse : ${p.place}`] : []),
      "",
      "Ajoutez-le à votre agenda ou modifiez-le depuis votre espace :",
    ],
    link: p.link,
  });
}

export function appointmentCancelledMail(p: {
  brandName: string;
  firstName: string;
  byName: string;
  when: string | null;
  link: string;
}) {
  return letter(p, {
    subject: "Rendez-vous annulé",
    lines: [
      p.when
        ? `${p.byName} a annulé le rendez-vous du ${p.when}.`
        : `${p.byName} a annulé la demande de rendez-vous en cours.`,
      "Vous pouvez convenir d'un autre rendez-vous, ou lui écrire, depuis votre espace :",
    ],
    link: p.link,
  });
}

/**
 * To a patient, three days before the last valid day of offers still open to her choice (ADR 087):
 * whose they are and until when, never the amounts nor the treatment.
 */
export function offersExpiringMail(p: {
  brandName: string;
  firstName: string;
  /** Each offer: its dentist (« Dr … ») and its last valid day, written out. */
  offers: Array<{ dentistName: string; until: string }>;
  link: string;
  preferencesLink: string;
}) {
  const [first, ...others] = p.offers;
  const one = first !== undefined && others.length === 0;
  return letter(p, {
    subject: one ? "Une proposition expire bientôt" : `${p.offers.length} propositions expirent bientôt`,
    lines: one
      ? [
          `La proposition ${ofName(first.dentistName)} pour votre demande de devis est valable jusqu'au ${first.until}.`,
          "Après cette date, elle ne pourra plus être acceptée. Comparez-la et acceptez-la depuis votre espace si elle vous convient, ou posez vos questions au dentiste :",
        ]
      : [
          "Ces propositions pour votre demande de devis arrivent à la fin de leur validité :",
          ...p.offers.map((offer) => `- ${offer.dentistName} : jusqu'au ${offer.until}`),
          "",
          "Après ces dates, elles ne pourront plus être acceptées. Comparez-les depuis votre espace et acceptez celle qui vous convient, ou posez vos questions aux dentistes :",
        ],
    link: p.link,
  });
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
  preferencesLink: string;
}) {
  return letter(p, {
    subject: `Rappel : rendez-vous ${p.kind === "1d" ? "demain" : "dans une semaine"}`,
    lines: [
      `Nous vous rappelons votre rendez-vous avec ${theName(p.withName)} : ${p.when}.`,
      ...(p.place ? [`Adresse : ${p.place}`] : []),
      "",
      "En cas d'empêchement, déplacez-le ou annulez-le depuis votre espace :",
    ],
    link: p.link,
  });
}

/**
 * ADR 093: the patient of an appointment still standing whose dentist is no longer verified (D6: he
 * no longer sees it on Sourio). A confirmed one stands; a pending one waits for him.
 */
export function appointmentDentistAwayMail(p: {
  brandName: string;
  firstName: string;
  withName: string;
  /** The confirmed time in long French; null while the appointment is pending. */
  when: string | null;
  /** His practice's address, as in the appointment's e-mails; null when he gave none. */
  place: string | null;
  link: string;
}) {
  const the = theName(p.withName);
  return letter(p, {
    subject: `Votre rendez-vous avec ${the}`,
    lines: p.when
      ? [
          `Votre dentiste, ${the}, ne fait plus partie des dentistes vérifiés par notre équipe pour le moment. Votre rendez-vous du ${p.when} n'est pas annulé, mais il ne peut plus être déplacé sur ${p.brandName}.`,
          `Pour toute question, contactez directement son cabinet${p.place ? ` (${p.place})` : ""}. Si vous ne souhaitez plus vous y rendre, annulez-le depuis votre espace\u202f:`,
        ]
      : [
          `Votre dentiste, ${the}, ne fait plus partie des dentistes vérifiés par notre équipe pour le moment\u202f: votre demande de rendez-vous ne peut pas recevoir de réponse.`,
          "Vous pouvez attendre son retour, ou annuler cette demande et changer d'avis pour choisir une autre proposition, depuis votre espace\u202f:",
        ],
    link: p.link,
  });
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
  return letter(p, {
    subject: "Votre mot de passe a été modifié",
    lines: [
      `Le mot de passe de votre compte ${p.brandName} a été modifié le ${p.when} (${p.device}).`,
      "Par sécurité, vos autres appareils ont été déconnectés : reconnectez-vous avec le nouveau mot de passe.",
      "",
      "Si vous n'êtes pas à l'origine de ce changement, quelqu'un connaît peut-être votre mot de passe :",
      "choisissez-en tout de suite un nouveau avec ce lien (« Mot de passe oublié ») :",
    ],
    link: p.resetLink,
  });
}

/**
 * Two-step sign-in turned on or off in « Sécurité » (ADR 098): when and on what; if it was not the
 * person, someone holds their password and an open session.
 */
export function twoFactorChangedMail(p: {
  brandName: string;
  firstName: string;
  on: boolean;
  when: string;
  device: string;
  securityLink: string;
  resetLink: string;
}) {
  return letter(p, {
    subject: p.on ? "Double authentification activée" : "Double authentification désactivée",
    lines: [
      p.on
        ? `La double authentification de votre compte ${p.brandName} a été activée le ${p.when} (${p.device}) : un code de votre application vous sera demandé à chaque connexion.`
        : `La double authentification de votre compte ${p.brandName} a été désactivée le ${p.when} (${p.device}) : votre mot de passe suffit désormais pour vous connecter.`,
      "",
      "Si vous n'êtes pas à l'origine de ce changement, quelqu'un connaît votre mot de passe : choisissez-en tout de suite un nouveau avec ce lien (« Mot de passe oublié ») :",
      p.resetLink,
      "",
      "puis vérifiez vos appareils connectés dans la partie « Sécurité » de votre compte :",
    ],
    link: p.securityLink,
  });
}

/**
 * The team removed two-step sign-in at the person's request (ADR 098), after checking who
 * asked: what it means, how to turn it on again, and whom to tell if it was not them.
 */
export function twoFactorRemovedMail(p: {
  brandName: string;
  firstName: string;
  when: string;
  securityLink: string;
  contactLink: string;
}) {
  return letter(p, {
    subject: "Double authentification retirée par notre équipe",
    lines: [
      `À votre demande, notre équipe a retiré la double authentification de votre compte ${p.brandName} le ${p.when}. Vos appareils ont été déconnectés : vous vous connectez désormais avec votre mot de passe seul.`,
      "",
      "Si vous n'avez rien demandé, écrivez-nous tout de suite :",
      p.contactLink,
      "",
      "Pour la réactiver avec votre nouveau téléphone, rendez-vous dans la partie « Sécurité » de votre compte :",
    ],
    link: p.securityLink,
  });
}

/**
 * A sign-in from a browser that had never signed into this account (no trusted-device cookie of
 * it, ADR 082): when and on what, and what to do if it was not the person. Never an address or a
 * place: the device's label is what people recognise.
 */
export function newSignInMail(p: {
  brandName: string;
  firstName: string;
  when: string;
  device: string;
  securityLink: string;
  resetLink: string;
}) {
  return letter(p, {
    subject: "Nouvelle connexion à votre compte",
    lines: [
      `Votre compte ${p.brandName} vient d'être ouvert sur un appareil qui ne s'y était pas encore connecté : ${p.device}, le ${p.when}.`,
      "Si c'est vous, vous n'avez rien à faire.",
      "",
      "Sinon, quelqu'un connaît votre mot de passe : changez-le tout de suite et déconnectez cet appareil, dans la partie « Sécurité » de votre compte :",
    ],
    link: p.securityLink,
    after: [
      "",
      "Si vous ne pouvez plus vous connecter, choisissez un nouveau mot de passe avec ce lien (« Mot de passe oublié ») :",
      p.resetLink,
    ],
  });
}

/** To the new address asked for in « Sécurité » (ADR 083): the link that makes it the account's. */
export function emailChangeLinkMail(p: { brandName: string; firstName: string; link: string }) {
  return letter(p, {
    subject: "Confirmez votre nouvelle adresse e-mail",
    lines: [
      `Vous avez demandé que cette adresse devienne celle de votre compte ${p.brandName}.`,
      "Ouvrez ce lien pour le confirmer (il est valable une heure et ne sert qu'une fois) :",
    ],
    link: p.link,
    after: [
      "",
      "Jusque-là, votre compte garde son adresse actuelle. Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail.",
    ],
  });
}

/**
 * To an address someone asked to make their account's while it is already another account's
 * (ADR 083): the answer on screen is the same as for a free address, so only its owner learns it.
 */
export function emailInUseMail(p: { brandName: string; forgotLink: string }) {
  return letter(
    { brandName: p.brandName },
    {
      subject: "Cette adresse a déjà un compte",
      lines: [
        `Quelqu'un a demandé que cette adresse devienne celle d'un compte ${p.brandName}. Elle est déjà celle d'un compte : elle ne peut pas servir à un second, et rien n'a changé.`,
        "Si c'est vous, connectez-vous avec cette adresse. Mot de passe oublié ? Choisissez-en un nouveau avec ce lien :",
      ],
      link: p.forgotLink,
      after: ["", "Sinon, ignorez cet e-mail."],
    },
  );
}

/**
 * To the former address once the change is confirmed (ADR 083): when, to which address, and what
 * to do if it was not the person — who can no longer use « Mot de passe oublié » with this address.
 */
export function emailChangedMail(p: {
  brandName: string;
  firstName: string;
  when: string;
  newEmail: string;
  securityLink: string;
  contactEmail: string;
}) {
  return letter(p, {
    subject: "L'adresse e-mail de votre compte a été modifiée",
    lines: [
      `Le ${p.when}, l'adresse de votre compte ${p.brandName} est devenue ${p.newEmail}. Cette adresse-ci ne sert plus à vous connecter.`,
      "Si c'est vous, vous n'avez rien à faire. Vos appareils restent connectés ; vous pouvez les voir dans « Sécurité » :",
    ],
    link: p.securityLink,
    after: [
      "",
      `Si vous n'êtes pas à l'origine de ce changement, écrivez-nous tout de suite à ${p.contactEmail} depuis cette adresse : nous rendrons le compte à son titulaire.`,
    ],
  });
}

export function accountErasedMail(p: { brandName: string; firstName: string }) {
  return letter(p, {
    subject: "Votre compte a été supprimé",
    lines: [
      `Votre compte ${p.brandName} a été supprimé, comme demandé : votre profil, vos demandes, vos documents, vos messages et vos pièces jointes ont été effacés. Ce qui concerne aussi d'autres personnes (une proposition acceptée et son montant, par exemple) est conservé sans votre nom, comme l'indiquait la page de suppression. Nous ne vous écrirons plus.`,
      "",
      "Si vous n'êtes pas à l'origine de cette suppression, répondez à cet e-mail.",
    ],
  });
}

export function inactivityWarningMail(p: {
  brandName: string;
  firstName: string;
  erasedOn: string;
  loginLink: string;
  /** Suspended by the team (ADR 092): she cannot sign in to keep it; the contact form's address instead. */
  suspended?: { contactLink: string };
}) {
  const subject = `Votre compte sera supprimé le ${p.erasedOn}`;
  const notice = `seront supprimés le ${p.erasedOn}.`;
  if (p.suspended)
    return letter(p, {
      subject,
      lines: [
        `Votre compte ${p.brandName}, suspendu par notre équipe, n'a pas servi depuis longtemps. Comme annoncé dans notre politique de confidentialité, votre compte et vos données (demandes, documents, messages) ${notice}`,
        "",
        "Tant que la suspension dure, vous ne pouvez pas vous connecter pour le garder ni télécharger vos données.",
        "Pour en parler avec l'équipe avant cette date, écrivez-nous depuis le formulaire de contact :",
      ],
      link: p.suspended.contactLink,
    });
  return letter(p, {
    subject,
    lines: [
      `Votre compte ${p.brandName} n'a pas servi depuis longtemps. Comme annoncé dans notre politique de confidentialité, votre compte et vos données (demandes, documents, messages) ${notice}`,
      "",
      "Pour garder votre compte, il suffit de vous connecter avant cette date :",
    ],
    link: p.loginLink,
    after: ["", "Vous pouvez aussi télécharger vos données depuis votre profil avant leur suppression."],
  });
}

/**
 * Issue 35: the trial ends within 7 days (in 7 when the job runs on time; fewer after an outage or for
 * a trial it first sees late), `daysLeft` counted in Paris calendar days; the link opens the Abonnement page.
 */
export function trialEndingMail(p: {
  brandName: string;
  firstName: string;
  endsOn: string;
  daysLeft: number;
  link: string;
}) {
  const when = p.daysLeft <= 0 ? "aujourd'hui" : p.daysLeft === 1 ? "demain" : `dans ${p.daysLeft} jours`;
  return letter(p, {
    subject: `Votre essai gratuit se termine ${when}`,
    lines: [
      `Votre essai gratuit ${ofName(p.brandName)} se termine ${when}, le ${p.endsOn}.`,
      "Pour continuer à recevoir de nouvelles demandes et envoyer des propositions, choisissez votre formule :",
    ],
    link: p.link,
    after: [
      "",
      "Sans abonnement, vous gardez vos conversations, vos patients, vos rendez-vous et les documents partagés.",
    ],
  });
}

/** Issue 35: a payment failed; the link opens the page where the payment method is fixed. */
export function paymentFailedMail(p: {
  brandName: string;
  firstName: string;
  graceEndsOn: string;
  link: string;
}) {
  return letter(p, {
    subject: "Le paiement de votre abonnement a échoué",
    lines: [
      "Le dernier paiement de votre abonnement n'a pas abouti.",
      `Votre accès reste complet jusqu'au ${p.graceEndsOn}. Mettez à jour votre moyen de paiement depuis cette page (bouton « Gérer mon moyen de paiement ») :`,
    ],
    link: p.link,
    after: [
      "",
      "Passé cette date, vous ne recevrez plus de nouvelles demandes ; vos conversations, patients et rendez-vous restent accessibles.",
    ],
  });
}

/** Issue 35: the subscription ended (cancelled at the end of the paid period, or unpaid). */
export function subscriptionCancelledMail(p: { brandName: string; firstName: string; link: string }) {
  return letter(p, {
    subject: "Votre abonnement est terminé",
    lines: [
      `Votre abonnement à ${p.brandName} est terminé.`,
      "Vous gardez vos conversations, vos patients, vos rendez-vous et les documents partagés, mais vous ne recevez plus de nouvelles demandes.",
      "Pour reprendre, réactivez votre abonnement :",
    ],
    link: p.link,
  });
}

/** ADR 096: a change of plan asked for, from the end of the paid period; nothing charged before. */
export function planChangeMail(p: {
  brandName: string;
  firstName: string;
  /** « annuelle », « mensuelle ». */
  plan: string;
  startsOn: string;
  /** The new plan's price TTC, written out, and how often it is charged (« chaque année »). */
  amountTtc: string;
  every: string;
  link: string;
  /** Asked during a trial kept at checkout (ADR 085): the new plan's is the first payment. */
  inTrial?: boolean;
}) {
  const starts = p.inTrial
    ? `Votre abonnement commencera en formule ${p.plan} le ${p.startsOn}, à la fin de votre essai gratuit`
    : `Votre abonnement passe à la formule ${p.plan} le ${p.startsOn}, à la fin de la période déjà payée`;
  const meanwhile = p.inTrial ? "votre essai continue" : "votre formule actuelle reste active";
  return letter(p, {
    subject: "Votre changement de formule est enregistré",
    lines: [
      `${starts} : ${p.amountTtc} TTC seront prélevés ce jour-là, puis ${p.every}.`,
      `Rien n'est prélevé d'ici là, et ${meanwhile} jusqu'à cette date.`,
      "",
      "Vous pouvez annuler ce changement jusque-là depuis la page Abonnement :",
    ],
    link: p.link,
  });
}

/** Issue 35: an invoice was issued for a payment; the link opens the invoice list. */
export function invoiceAvailableMail(p: {
  brandName: string;
  firstName: string;
  number: string;
  link: string;
  /** A credit note's: the invoice it credits. */
  refersTo?: string;
}) {
  if (p.refersTo)
    return letter(p, {
      subject: `Votre avoir ${p.number} est disponible`,
      lines: [
        `Un avoir a été émis sur votre facture ${p.refersTo}. L'avoir ${p.number} est disponible dans votre espace :`,
      ],
      link: p.link,
    });
  return letter(p, {
    subject: `Votre facture ${p.number} est disponible`,
    lines: [`Merci pour votre paiement. Votre facture ${p.number} est disponible dans votre espace :`],
    link: p.link,
  });
}

/** The day after an appointment booked through Sourio (issue 36): an invitation to review it. */
export function reviewInvitationMail(p: {
  brandName: string;
  firstName: string;
  dentistName: string;
  link: string;
  preferencesLink: string;
}) {
  return letter(p, {
    subject: `Comment s'est passé votre rendez-vous avec ${theName(drName(p.dentistName))} ?`,
    lines: [
      `Comment s'est passé votre rendez-vous avec ${theName(drName(p.dentistName))} ? Votre avis aide d'autres patients à choisir.`,
      `Seuls les patients dont le rendez-vous a été pris sur ${p.brandName} et a eu lieu peuvent donner un avis ; l'équipe le relit avant de le publier.`,
      "Donnez votre avis depuis votre espace :",
    ],
    link: p.link,
    after: ["", "N'y écrivez pas de détails sur votre santé : l'avis sera lu par d'autres patients."],
  });
}

/** The team published the author's review. */
export function reviewPublishedMail(p: {
  brandName: string;
  firstName: string;
  dentistName: string;
  link: string;
}) {
  return letter(p, {
    subject: "Votre avis est publié",
    lines: [
      `Votre avis sur ${theName(drName(p.dentistName))} a été relu et publié. Merci pour votre témoignage.`,
      `Vous pouvez le modifier pendant ${REVIEW_LIMITS.editDays} jours après l'avoir écrit, ou le supprimer à tout moment :`,
    ],
    link: p.link,
  });
}

/**
 * The team refused (or withdrew) the author's review: the reason, and what she can do. `mayEdit`:
 * whether editing is still open when the mail is sent (REVIEW_LIMITS.editDays after writing).
 */
export function reviewRefusedMail(p: {
  brandName: string;
  firstName: string;
  dentistName: string;
  reason: string;
  mayEdit: boolean;
  link: string;
  /** It was online: withdrawn after a report, not « pas publié ». */
  withdrawn?: boolean;
}) {
  return letter(p, {
    subject: p.withdrawn ? "Votre avis a été retiré" : "Votre avis n'a pas été publié",
    lines: [
      p.withdrawn
        ? `Votre avis sur ${theName(drName(p.dentistName))} a été retiré après examen par notre équipe, pour la raison suivante :`
        : `Votre avis sur ${theName(drName(p.dentistName))} n'a pas été publié, pour la raison suivante :`,
      p.reason,
      "",
      p.mayEdit
        ? "Vous pouvez le modifier (il sera relu à nouveau) ou nous écrire si vous contestez cette décision :"
        : "Il a été écrit il y a plus de 30 jours : il ne peut plus être modifié, mais vous pouvez le supprimer, ou nous écrire si vous contestez cette décision :",
    ],
    link: p.link,
  });
}

/** The dentist reported a review about him: the team examined the report and keeps the review online. */
export function reviewKeptMail(p: { brandName: string; firstName: string; link: string }) {
  return letter(p, {
    subject: "Votre signalement d'un avis a été examiné",
    lines: [
      "Notre équipe a examiné votre signalement d'un avis de patient. Cet avis respecte nos règles : il reste en ligne.",
      "Vous pouvez y répondre publiquement une fois, si ce n'est déjà fait, depuis votre espace :",
    ],
    link: p.link,
  });
}

/** The dentist reported a review about him: the team examined the report and took the review down. */
export function reviewWithdrawnMail(p: { brandName: string; firstName: string; link: string }) {
  return letter(p, {
    subject: "Votre signalement d'un avis a été examiné",
    lines: [
      "Notre équipe a examiné votre signalement d'un avis de patient. Cet avis ne respectait pas nos règles : il a été retiré et n'est plus en ligne.",
      "Vos avis sont dans votre espace :",
    ],
    link: p.link,
  });
}

/** A dentist is told of each review published about him; he may answer it once, or report it. */
export function reviewAboutYouMail(p: {
  brandName: string;
  firstName: string;
  rating: number;
  link: string;
  preferencesLink: string;
}) {
  return letter(p, {
    subject: "Un nouvel avis de patient est publié",
    lines: [
      `Un patient reçu sur rendez-vous pris sur ${p.brandName} a laissé un avis (${p.rating}/5), relu par notre équipe et publié.`,
      "Vous pouvez y répondre publiquement une fois, ou le signaler à l'équipe s'il vous semble contraire à nos règles :",
    ],
    link: p.link,
  });
}
