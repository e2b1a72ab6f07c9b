import { retentionLines } from "../../../../shared/domain/retention";
import { useConfig } from "../../../lib/config";
import { ContentPage, linkClass, Section } from "./ContentPage";

export function PrivacyPage() {
  const { brand_name, contact_email } = useConfig();
  const mail = (
    <a href={`mailto:${contact_email}`} className={linkClass}>
      {contact_email}
    </a>
  );
  return (
    <ContentPage
      title="Politique de confidentialité"
      description={`Comment ${brand_name} protège vos données de santé : données collectées, base légale, qui voit vos documents, durées de conservation, vos droits RGPD.`}
      intro={`${brand_name} traite des données de santé. Cette page explique lesquelles, pourquoi, qui peut les voir, combien de temps nous les gardons et comment exercer vos droits (RGPD).`}
    >
      <Section title="Responsable du traitement">
        <p>
          {brand_name} est responsable du traitement des données collectées sur ce site. Pour toute question
          sur vos données, écrivez-nous à {mail}.
        </p>
      </Section>
      <Section title="Les données que nous collectons, et pourquoi">
        <ul className="grid list-disc gap-2 pl-5">
          <li>
            <strong>Votre compte</strong> : nom, prénom, adresse e-mail, mot de passe (chiffré, jamais
            lisible), et si vous les ajoutez, téléphone, ville et photo. Pour vous identifier et faire
            fonctionner le service.
          </li>
          <li>
            <strong>Vos demandes</strong> : devis, radiographies, photos, type de soin, budget, urgence et
            description. Ce sont des données de santé : elles servent uniquement à obtenir les propositions
            des dentistes que vous choisissez.
          </li>
          <li>
            <strong>Votre devis détaillé et votre mutuelle</strong>, si vous les saisissez : les actes de
            votre devis (dent, acte, honoraires) et le niveau de remboursement de votre mutuelle. Ils servent
            à estimer votre reste à charge sur chaque proposition ; les dentistes voient les actes de votre
            devis, jamais votre mutuelle.
          </li>
          <li>
            <strong>Vos échanges</strong> : messages avec les dentistes et avec notre équipe, offres et
            rendez-vous.
          </li>
          <li>
            <strong>Les dentistes</strong> : identité, numéro RPPS, adresse du cabinet, spécialités, pour
            vérifier leur droit d'exercer.
          </li>
          <li>
            <strong>La facturation des dentistes</strong> : nom, adresse et SIREN du cabinet, factures et
            avoirs de leur abonnement, que la loi nous oblige à conserver.
          </li>
          <li>
            <strong>Le formulaire de contact</strong> : nom, e-mail, message et pièce jointe éventuelle, pour
            vous répondre.
          </li>
        </ul>
        <p>
          Seuls des cookies nécessaires sont utilisés : celui de votre session, pour rester connecté (avec, si
          vous n'avez pas coché « Se souvenir de moi », un second qui la fait finir à la fermeture du
          navigateur), et celui qui reconnaît un navigateur déjà connecté à votre compte (un an), pour le
          protéger : les essais de mot de passe d'autres personnes ne bloquent pas ce navigateur, et une
          connexion depuis un autre vous est signalée par e-mail. Aucun traceur publicitaire ni outil de
          mesure d'audience tiers.
        </p>
      </Section>
      <Section title="Base légale">
        <p>
          Vos données de santé ne sont traitées qu'avec votre <strong>consentement explicite</strong> (article
          9 du RGPD), donné lorsque vous déposez une demande. Vous pouvez le retirer à tout moment ; cela
          n'affecte pas ce qui a été fait avant. Les autres données sont traitées pour exécuter le service que
          vous demandez (article 6.1.b) et, pour la sécurité du site et la traçabilité des accès, au titre de
          notre intérêt légitime (article 6.1.f). Les factures des dentistes sont conservées au titre d'une
          obligation légale (article 6.1.c).
        </p>
      </Section>
      <Section title="Qui voit vos documents">
        <p>
          Vos documents ne sont jamais publiés ni accessibles par une adresse publique. Seuls peuvent les
          voir : vous ; les dentistes vérifiés que vous avez choisis (un dentiste précis, ou tous les
          dentistes vérifiés du réseau si vous le décidez) ; et notre équipe d'administration, uniquement pour
          vous aider ou traiter un signalement. Un dentiste dont le compte n'est pas vérifié ne voit aucune
          donnée de patient. Nous ne vendons ni ne louons aucune donnée.
        </p>
      </Section>
      <Section title="Le journal des accès">
        <p>
          Chaque ouverture de votre demande par un dentiste, chaque consultation ou téléchargement d'un de vos
          documents ou des pièces jointes que vous envoyez est enregistré : qui, quoi, quand. Vous consultez
          ce journal dans votre espace patient, sur la page de chaque demande.
        </p>
      </Section>
      <Section title="Durées de conservation">
        <ul className="grid list-disc gap-2 pl-5">
          {retentionLines().map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </Section>
      <Section title="Vos droits">
        <p>
          Vous pouvez à tout moment accéder à vos données, en obtenir une copie dans un format courant
          (portabilité), les faire rectifier ou effacer, limiter leur traitement, vous y opposer, et retirer
          votre consentement. Depuis votre profil, rubrique « Mes données », vous téléchargez vous-même toutes
          vos données (une archive zip) et vous supprimez votre compte ; vous y modifiez aussi votre profil,
          et votre adresse e-mail dans « Sécurité ». Dans la rubrique « Notifications », vous arrêtez les
          e-mails dont vous pouvez vous passer (messages non lus, rappels de rendez-vous, avis). Pour le
          reste, écrivez à {mail} depuis l'adresse de votre compte. Nous répondons dans un délai d'un mois au
          plus.
        </p>
        <p>
          Si vous estimez que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la CNIL
          (Commission nationale de l'informatique et des libertés), sur cnil.fr.
        </p>
      </Section>
      <Section title="Hébergement et sécurité">
        <p>
          Le service est hébergé dans l'Union européenne par notre hébergeur. Les données de santé doivent
          être hébergées chez un hébergeur certifié HDS (hébergeur de données de santé) ; le nom de
          l'hébergeur retenu vous est communiqué sur simple demande. Les échanges avec le site sont chiffrés
          (HTTPS) ; les documents sont chiffrés sur nos serveurs (AES-256), stockés sous des noms aléatoires
          et ne sont servis qu'aux personnes autorisées.
        </p>
      </Section>
    </ContentPage>
  );
}
