import { Pause, Play } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";

/** Text alternative of public/media/hero.* (see public/media/README.md). */
export const HERO_VIDEO_DESCRIPTION =
  "Animation : un devis dentaire arrive, trois dentistes vérifiés proposent chacun une offre moins chère, la meilleure est mise en avant puis un rendez-vous est confirmé.";

/** The video's first image, shown until it plays: the landing page's largest paint (ADR 053). */
export const HERO_POSTER_PATH = "/media/hero-poster.webp";

export const HERO_VIDEO_FALLBACK = "La vidéo de présentation ne peut pas être chargée.";

function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches
  );
}

/**
 * Starts the video; `refused` runs when the browser refuses (autoplay blocked, no playable source).
 * `play()` returns a promise in today's browsers, but nothing in older ones and in jsdom, and may
 * throw: every case is handled.
 */
export function startVideo(video: HTMLVideoElement, refused: () => void): void {
  let played: unknown;
  try {
    played = video.play();
  } catch {
    refused();
    return;
  }
  if (played && typeof (played as Promise<void>).catch === "function")
    (played as Promise<void>).catch(refused);
}

/**
 * The hero's muted, looping, inline video. The poster paints first: nothing is
 * downloaded until playback starts after mount (preload="none"). No autoplay when the visitor
 * prefers reduced motion; a pause/play button is always there (WCAG 2.2.2). If the video cannot
 * be loaded, the placeholder message shows over the poster.
 */
export function HeroVideo() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const lastSourceRef = useRef<HTMLSourceElement>(null);
  const [playing, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);
  const descriptionId = useId();

  useEffect(() => {
    const video = videoRef.current;
    const lastSource = lastSourceRef.current;
    if (!video) return;
    const fail = () => {
      setFailed(true);
      setPlaying(false);
    };
    // Every <source> failed: the error is fired on the last one (it does not bubble to <video>).
    lastSource?.addEventListener("error", fail);
    video.addEventListener("error", fail);
    video.muted = true;
    let cancelled = false;
    // Playback starts once the page has loaded and the browser is idle: the video's download and
    // decoding never compete with the page's first paint and hydration.
    const autoplay = () => {
      if (cancelled || prefersReducedMotion()) return;
      startVideo(video, () => {
        // Autoplay refused or no playable source: the poster and the play button stay.
        if (video.networkState === HTMLMediaElement.NETWORK_NO_SOURCE) fail();
      });
    };
    const whenIdle = () =>
      typeof requestIdleCallback === "function"
        ? requestIdleCallback(autoplay, { timeout: 1000 })
        : autoplay();
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener("load", whenIdle);
      lastSource?.removeEventListener("error", fail);
      video.removeEventListener("error", fail);
    };
  }, []);

  const toggle = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) {
      video.muted = true;
      startVideo(video, () => {
        if (video.networkState === HTMLMediaElement.NETWORK_NO_SOURCE) setFailed(true);
      });
    } else {
      video.pause();
    }
  };

  return (
    <figure className="relative overflow-hidden rounded-2xl bg-brand-800 shadow-lg ring-1 ring-brand-900/10">
      <video
        ref={videoRef}
        className="aspect-video w-full bg-brand-800 object-cover"
        poster={HERO_POSTER_PATH}
        preload="none"
        muted
        loop
        playsInline
        aria-label="Vidéo de présentation"
        aria-describedby={descriptionId}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        width={960}
        height={540}
      >
        <source src="/media/hero.webm" type="video/webm" />
        <source ref={lastSourceRef} src="/media/hero.mp4" type="video/mp4" />
      </video>
      <figcaption id={descriptionId} className="sr-only">
        {HERO_VIDEO_DESCRIPTION}
      </figcaption>
      {failed ? (
        <div className="absolute inset-0 flex items-center justify-center bg-brand-900/85 p-6 text-center">
          <p role="status" className="max-w-xs font-medium text-white">
            {HERO_VIDEO_FALLBACK}
          </p>
        </div>
      ) : (
        <button
          type="button"
          onClick={toggle}
          aria-label={playing ? "Mettre en pause la vidéo" : "Lire la vidéo"}
          className="absolute bottom-3 left-3 inline-flex size-11 items-center justify-center rounded-full bg-white/95 text-brand-900 shadow-md hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {playing ? (
            <Pause className="size-5" aria-hidden="true" />
          ) : (
            <Play className="size-5" aria-hidden="true" />
          )}
        </button>
      )}
    </figure>
  );
}
