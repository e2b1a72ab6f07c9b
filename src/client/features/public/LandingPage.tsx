import {
  BadgeCheck,
  CalendarCheck,
  Clock,
  FileUp,
  HeartHandshake,
  MessagesSquare,
  PiggyBank,
  Scale,
  ShieldCheck,
  Stethoscope,
} from "lucide-react";
import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { UPLOAD_INTENT_PATH } from "../../../shared/uploadIntent";
import { Island } from "../../components/Island";
import { Button } from "../../components/ui/Button";
import { FIGURES } from "../../content/landing";
import { useConfig } from "../../lib/config";
import { usePageMeta } from "../../lib/title";
import { BenefitCard } from "./BenefitCard";
import { HERO_POSTER_PATH, HeroVideo } from "./HeroVideo";
import { PublicFigures } from "./publicStats";
import { SectionTitle } from "./SectionTitle";

// Testimonials, FAQ and contact form are below the fold: in the app rendered by the browser their
// code loads right after the first paint (pre-rendered, only their islands hydrate: ADR 027).
const LandingMore = lazy(() => import("./LandingMore"));

const STEPS = [
  {
    icon: FileUp,
    title: "Déposez votre devis",
    text: "Envoyez le devis remis par votre dentiste (photo ou PDF) et, si vous les avez, vos radiographies.",
    action: { to: UPLOAD_INTENT_PATH, label: "Commencer maintenant" },
  },
  {
    icon: MessagesSquare,
    title: "Décrivez vos besoins",
    text: "Précisez le soin, votre budget et vos questions. Notre équipe vous répond par écrit si vous hésitez.",
    action: { to: "/contact", label: "Discuter avec nous" },
  },
  {
    icon: Scale,
    title: "Comparez les offres",
    text: "Des dentistes vérifiés étudient votre dossier et vous font une proposition ; un e-mail vous prévient dès qu'elle arrive.",
    action: { to: "/how-it-works#exemple", label: "Voir un exemple" },
  },
  {
    icon: CalendarCheck,
    title: "Prenez rendez-vous",
    text: "Une offre vous convient ? Échangez avec le dentiste par la messagerie, puis choisissez un créneau.",
    action: { to: "/upload-devis", label: "Prendre rendez-vous" },
  },
] as const;

const REASONS = [
  {
    title: "Un deuxième avis, sans vous déplacer",
    text: "Avant de vous engager sur un soin coûteux, d'autres dentistes regardent votre devis et vos radiographies.",
  },
  {
    title: "Des propositions faciles à comparer",
    text: "Montant, économie par rapport à votre devis, ville et vérification du dentiste : tout est présenté de la même façon.",
  },
  {
    title: "Vous restez libre",
    text: "Rien ne vous oblige à accepter une offre. Vous pouvez aussi garder votre dentiste.",
  },
  {
    title: "Gratuit pour vous",
    text: "Les dentistes paient un abonnement pour faire partie du réseau. Aucune commission n'est prélevée, ni sur vos soins ni sur leurs devis.",
  },
] as const;

const BENEFITS = [
  {
    icon: PiggyBank,
    title: "L'économie, chiffrée",
    text: "Chaque proposition affiche son montant et l'écart avec votre devis, pour comparer en connaissance de cause.",
  },
  {
    icon: BadgeCheck,
    title: "Des dentistes vérifiés",
    text: "Notre équipe contrôle chaque dentiste à la main : son numéro RPPS et son cabinet.",
  },
  {
    icon: ShieldCheck,
    title: "Vos données protégées",
    text: "Conforme au RGPD. Seuls les dentistes vérifiés que vous choisissez voient vos documents, et chaque consultation est enregistrée.",
  },
  {
    icon: Clock,
    title: "Tout en ligne",
    text: "Un service entièrement en ligne : un e-mail vous prévient de chaque nouvelle proposition.",
  },
] as const;

/** / — what the product is, the upload call to action visible without scrolling on a phone. */
export function LandingPage() {
  const { brand_name } = useConfig();
  usePageMeta({
    title: `${brand_name} — comparez vos devis dentaires`,
    full: true,
    preloadImage: HERO_POSTER_PATH,
    description: `${brand_name}, la mutuelle dentaire numérique : déposez le devis de votre dentiste et recevez gratuitement les propositions de dentistes vérifiés.`,
  });
  return (
    <>
      <section aria-labelledby="hero-title" className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 pt-8 pb-12 sm:px-6 sm:pt-14 md:pb-16 lg:grid-cols-[1.1fr_1fr]">
          <div>
            <p className="mb-3 inline-flex rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-800 ring-1 ring-brand-200">
              La mutuelle dentaire numérique
            </p>
            <h1
              id="hero-title"
              className="text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl"
            >
              Comparez votre devis dentaire avec des dentistes vérifiés
            </h1>
            <p className="mt-4 text-lg text-slate-700">
              Votre dentiste vous a remis un devis ? Déposez-le : des dentistes vérifiés vous proposent une
              alternative, souvent moins chère. Vous comparez, puis vous choisissez. C'est gratuit.
            </p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row">
              <Button asChild variant="accent" size="lg">
                <Link to={UPLOAD_INTENT_PATH}>
                  <FileUp aria-hidden="true" />
                  Déposer votre devis
                </Link>
              </Button>
              <Button asChild variant="outline" size="lg">
                <Link to="/how-it-works">Comment ça marche</Link>
              </Button>
            </div>
            <ul className="mt-5 flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-700">
              <li className="inline-flex items-center gap-1.5">
                <HeartHandshake className="size-4 text-brand-700" aria-hidden="true" />
                Gratuit pour les patients
              </li>
              <li className="inline-flex items-center gap-1.5">
                <ShieldCheck className="size-4 text-brand-700" aria-hidden="true" />
                Données de santé protégées (RGPD)
              </li>
              <li className="inline-flex items-center gap-1.5">
                <Stethoscope className="size-4 text-brand-700" aria-hidden="true" />
                Dentistes vérifiés
              </li>
            </ul>
          </div>
          <Island name="hero-video">
            <HeroVideo />
          </Island>
        </div>
        <div className="mx-auto max-w-6xl px-4 pb-12 sm:px-6">
          <Island name="public-figures" props={{ figures: FIGURES }}>
            <PublicFigures figures={FIGURES} />
          </Island>
        </div>
      </section>

      <section aria-labelledby="steps-title" className="below-fold mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <SectionTitle id="steps-title">Comment ça marche</SectionTitle>
        <p className="mt-2 max-w-2xl text-slate-700">Quatre étapes, à votre rythme, sans engagement.</p>
        <ol className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li
              key={step.title}
              className="flex flex-col rounded-ui border border-slate-200 bg-white p-5 shadow-sm"
            >
              <div className="flex items-center gap-3">
                <span className="flex size-9 items-center justify-center rounded-full bg-brand-700 font-semibold text-white">
                  {index + 1}
                </span>
                <step.icon className="size-6 text-brand-700" aria-hidden="true" />
              </div>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 flex-1 text-slate-700">{step.text}</p>
              <div className="mt-5">
                <Button asChild variant={index === 0 ? "primary" : "secondary"} className="w-full">
                  <Link to={step.action.to}>{step.action.label}</Link>
                </Button>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="why-title" className="below-fold bg-slate-50">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-14 sm:px-6 lg:grid-cols-[1fr_2fr]">
          <div>
            <SectionTitle id="why-title">Pourquoi utiliser {brand_name}</SectionTitle>
            <p className="mt-3 text-slate-700">
              Un devis dentaire engage souvent plusieurs centaines, voire milliers d'euros. Le comparer est
              votre droit.
            </p>
          </div>
          <ul className="grid gap-6 sm:grid-cols-2">
            {REASONS.map((reason) => (
              <li key={reason.title} className="border-l-4 border-brand-600 pl-4">
                <h3 className="font-semibold text-slate-900">{reason.title}</h3>
                <p className="mt-1 text-slate-700">{reason.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="benefits-title" className="below-fold mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <SectionTitle id="benefits-title">Ce que vous y gagnez</SectionTitle>
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {BENEFITS.map((benefit) => (
            <BenefitCard
              key={benefit.title}
              {...benefit}
              headingClass="font-semibold text-slate-900"
              textClass="text-slate-700"
            />
          ))}
        </ul>
      </section>

      <Suspense fallback={<div className="min-h-[60rem]" aria-hidden="true" />}>
        <LandingMore />
      </Suspense>
    </>
  );
}
