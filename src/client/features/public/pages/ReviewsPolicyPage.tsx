import { Link } from "react-router";
import { REVIEW_LIMITS } from "../../../../shared/domain/reviews";
import { ofName } from "../../../../shared/format/names";
import { useConfig } from "../../../lib/config";
import { ContentPage, linkClass, Section } from "./ContentPage";

/**
 * /avis: how patients' reviews are collected, checked, ordered and kept, as the French consumer code
 * requires of anyone who publishes consumer reviews (article L111-7-2, articles D111-16 to D111-19).
 * Every figure comes from REVIEW_LIMITS, the constants the server applies.
 */
export function ReviewsPolicyPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Comment fonctionnent les avis"
      description={`Qui peut donner un avis sur un dentiste ${ofName(brand_name)}, comment les avis sont vérifiés, classés et conservés, et comment en contester un.`}
      intro={`Les avis affichés sur ${brand_name} sont des avis vérifiés : chacun vient d'un patient dont le rendez-vous avec ce dentiste a été pris sur ${brand_name} et a eu lieu, et chacun est relu par notre équipe avant d'être publié.`}
    >
      <Section title="Qui peut donner un avis">
        <p>
          Seul le patient qui a pris rendez-vous avec un dentiste sur {brand_name}, une fois ce rendez-vous
          passé, peut donner un avis sur ce dentiste : un avis par rendez-vous. Le lendemain du rendez-vous,
          nous l'invitons par e-mail et sur son tableau de bord. Personne d'autre ne peut écrire d'avis : ni
          un visiteur, ni un autre patient, ni un dentiste.
        </p>
      </Section>
      <Section title="Comment les avis sont contrôlés">
        <p>
          Oui, les avis sont contrôlés. Chaque avis est relu par l'équipe {brand_name} avant sa publication.
          Nous repérons automatiquement les adresses e-mail, numéros de téléphone, liens et mots injurieux
          pour les signaler à la personne qui relit. Un avis est refusé s'il contient des données de santé ou
          des informations permettant d'identifier quelqu'un, des propos injurieux, diffamatoires ou
          discriminatoires, s'il ne parle pas du rendez-vous, ou s'il présente un conflit d'intérêts. Un avis
          négatif qui respecte ces règles est publié comme un avis positif.
        </p>
        <p>
          Quand un avis est refusé, son auteur reçoit la raison par e-mail ; pendant les{" "}
          {REVIEW_LIMITS.editDays} jours qui suivent l'écriture de l'avis, il peut le modifier (l'avis est
          alors relu à nouveau) ; ensuite, il peut le supprimer. Il peut toujours contester la décision.
        </p>
      </Section>
      <Section title="Ce qui est affiché">
        <p>
          Chaque avis montre sa note globale (de 1 à 5), les notes détaillées que le patient a choisi de
          donner (explications, écoute, ponctualité), son texte, le prénom et l'initiale du nom de son auteur
          (« Marie D., patiente vérifiée »), le mois du rendez-vous et la date de publication. La note moyenne
          d'un dentiste est la moyenne des notes globales de tous ses avis publiés, affichée avec leur nombre.
        </p>
        <p>
          Les avis sont lus par les patients connectés à {brand_name}, à côté des propositions des dentistes
          et sur la page d'avis de chacun ; le dentiste concerné lit ceux qui le concernent. Ils ne sont pas
          affichés aux visiteurs du site ni aux moteurs de recherche.
        </p>
      </Section>
      <Section title="Dans quel ordre">
        <p>
          Les avis d'un dentiste sont classés du plus récent au plus ancien, selon leur date de publication.
          Les propositions des dentistes ne sont jamais classées par note par défaut : c'est vous qui
          choisissez de les trier ainsi.
        </p>
      </Section>
      <Section title="Aucune contrepartie">
        <p>
          Personne n'est payé ni récompensé pour donner un avis, et aucun dentiste ne peut payer pour obtenir,
          masquer, modifier ou réordonner des avis. Un dentiste ne peut ni supprimer ni cacher un avis : il
          peut y répondre publiquement, une seule fois, et le signaler à notre équipe.
        </p>
      </Section>
      <Section title="Combien de temps un avis reste en ligne">
        <p>
          Un avis publié reste en ligne {REVIEW_LIMITS.onlineYears} ans après le rendez-vous, puis il est
          supprimé. Son auteur peut le modifier pendant {REVIEW_LIMITS.editDays} jours après l'avoir écrit (il
          est alors relu à nouveau) et le supprimer à tout moment depuis « Mes avis ». Un avis refusé est
          supprimé {REVIEW_LIMITS.refusedDays} jours après le refus. Les avis sont aussi supprimés avec le
          compte de leur auteur, ou avec celui du dentiste.
        </p>
      </Section>
      <Section title="Contester un avis">
        <p>
          Le dentiste concerné peut signaler un avis depuis son espace, en indiquant la raison ; notre équipe
          l'examine et retire l'avis s'il ne respecte pas ces règles ; sinon l'avis reste en ligne et le
          dentiste en est informé. Toute autre personne peut nous écrire depuis la page{" "}
          <Link to="/contact" className={linkClass}>
            Contact
          </Link>
          . L'auteur d'un avis refusé ou retiré reçoit la raison de la décision et peut la contester de la
          même façon.
        </p>
        <p>
          Les avis sont des données personnelles : voir notre{" "}
          <Link to="/privacy" className={linkClass}>
            politique de confidentialité
          </Link>
          .
        </p>
      </Section>
    </ContentPage>
  );
}
