import { Link } from "react-router";
import { TRIAL_DAYS } from "../../../../shared/domain/subscription";
import { ofName } from "../../../../shared/format/names";
import { Island } from "../../../components/Island";
import { PlanPrices } from "../../../components/subscription/PlanPrices";
import { useConfig } from "../../../lib/config";
import { ContentPage, linkClass, Section } from "./ContentPage";

export function TermsPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Conditions d'utilisation"
      description={`Les conditions d'utilisation ${ofName(brand_name)} pour les patients (service gratuit) et les dentistes (abonnement sans commission).`}
      intro={`${brand_name} met en relation des patients et des dentistes vérifiés pour comparer des devis dentaires. En utilisant le service, vous acceptez les conditions ci-dessous.`}
    >
      <Section title="Le service">
        <p>
          {brand_name} permet à un patient de déposer un devis dentaire et ses documents, de recevoir les
          propositions de dentistes vérifiés, de les comparer, d'échanger avec eux par messagerie et de
          prendre rendez-vous. {brand_name} n'est ni un cabinet dentaire ni un assureur.
        </p>
      </Section>
      <Section title="Pour les patients">
        <p>
          Le service est gratuit pour les patients. Vous vous engagez à déposer des documents qui vous
          concernent (ou concernent une personne dont vous avez la charge) et des informations exactes. Vous
          restez libre d'accepter une proposition ou non, et de garder votre dentiste.
        </p>
      </Section>
      <Section title="Pas de conseil médical">
        <p>
          La plateforme ne donne aucun avis médical et ne pose aucun diagnostic. Les propositions sont faites
          par les dentistes, sous leur seule responsabilité, sur la base des documents transmis ; le plan de
          traitement définitif est établi par le dentiste lors de la consultation. En cas d'urgence, contactez
          un dentiste de garde ou le 15.
        </p>
      </Section>
      <Section title="Pour les dentistes">
        <p>
          L'accès aux demandes est réservé aux chirurgiens-dentistes dont le compte a été vérifié (numéro RPPS
          et cabinet). L'accès au réseau est un abonnement, mensuel ou annuel, après un essai gratuit de{" "}
          {TRIAL_DAYS} jours à compter de la vérification, sans aucune commission sur les devis ou les soins.
          Les dentistes répondent avec sérieux, respectent le secret médical et le code de déontologie de leur
          profession.
        </p>
        <Island name="plan-prices" props={{ compact: true }}>
          <PlanPrices compact />
        </Island>
        <p>
          Conformément à ces règles, {brand_name} ne propose ni classement payant ni publicité : aucun
          dentiste ne peut payer pour être mis en avant. Les propositions sont présentées de la même façon
          pour tous ; le patient les trie lui-même.
        </p>
      </Section>
      <Section title="Comptes et sécurité">
        <p>
          Vous êtes responsable de la confidentialité de votre mot de passe. Nous pouvons suspendre un compte
          en cas d'usage frauduleux ou contraire à ces conditions.
        </p>
      </Section>
      <Section title="Vos données">
        <p>
          Le traitement de vos données est décrit dans notre{" "}
          <Link to="/privacy" className={linkClass}>
            politique de confidentialité
          </Link>
          .
        </p>
      </Section>
    </ContentPage>
  );
}
