import { Link } from "react-router";
import { useConfig } from "../../../lib/config";
import { FaqAccordion } from "../faqItems";
import { ContentPage, linkClass } from "./ContentPage";

export function FaqPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Questions fréquentes"
      description={`Les réponses sur ${brand_name} : gratuité pour les patients, protection des données de santé, vérification des dentistes, économies, fonctionnement de la demande de devis.`}
      intro="Les réponses aux questions que l'on nous pose le plus souvent."
    >
      <FaqAccordion headingLevel={2} />
      <p>
        Vous ne trouvez pas votre réponse ?{" "}
        <Link to="/contact" className={linkClass}>
          Contactez-nous
        </Link>
        .
      </p>
    </ContentPage>
  );
}
