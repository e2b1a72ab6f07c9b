import { useEffect } from "react";
import { useLocation } from "react-router";
import { useConfig } from "./config";

/** Sets document.title to "<page> — <brand>" (or the given full title when `full` is true). */
export function useDocumentTitle(page: string, options: { full?: boolean } = {}): void {
  const { brand_name } = useConfig();
  const title = options.full ? page : `${page} — ${brand_name}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** The image shared by every public page in link previews (the hero video's poster). */
export const SHARE_IMAGE_PATH = "/media/hero-poster.webp";

function setHeadTag(selector: string, create: () => HTMLElement, attribute: string, value: string): void {
  let element = document.head.querySelector<HTMLElement>(selector);
  if (!element) {
    element = create();
    document.head.append(element);
  }
  element.setAttribute(attribute, value);
}

function setMeta(attribute: "name" | "property", key: string, content: string): void {
  setHeadTag(
    `meta[${attribute}="${key}"]`,
    () => {
      const meta = document.createElement("meta");
      meta.setAttribute(attribute, key);
      return meta;
    },
    "content",
    content,
  );
}

/**
 * While pages are pre-rendered at build time (no document, effects do not run), the page's title
 * and description are collected here so that the HTML file carries them (src/client/prerender.tsx).
 */
export const prerenderedMeta: { title?: string; description?: string; preloadImage?: string } = {};

export interface PageMeta {
  /** "<title> — <brand>", or exactly `title` when `full` is true. */
  title: string;
  full?: boolean;
  description: string;
  /**
   * The page's largest paint when it is an image (the landing page's hero poster): the pre-rendered
   * HTML asks for it from its head at high priority, before the stylesheet (ADR 053).
   */
  preloadImage?: string;
}

/**
 * SEO of a public page: title, meta description, canonical URL (origin + path, no query or
 * hash) and the Open Graph tags. index.html carries the defaults for the first response.
 */
export function usePageMeta({ title, full, description, preloadImage }: PageMeta): void {
  const { brand_name } = useConfig();
  const { pathname } = useLocation();
  const fullTitle = full ? title : `${title} — ${brand_name}`;
  if (typeof document === "undefined") {
    prerenderedMeta.title = fullTitle;
    prerenderedMeta.description = description;
    if (preloadImage) prerenderedMeta.preloadImage = preloadImage;
  }
  useEffect(() => {
    const origin = window.location.origin;
    const url = `${origin}${pathname}`;
    document.title = fullTitle;
    setMeta("name", "description", description);
    setHeadTag(
      'link[rel="canonical"]',
      () => {
        const link = document.createElement("link");
        link.rel = "canonical";
        return link;
      },
      "href",
      url,
    );
    setMeta("property", "og:title", fullTitle);
    setMeta("property", "og:description", description);
    setMeta("property", "og:url", url);
    setMeta("property", "og:type", "website");
    setMeta("property", "og:site_name", brand_name);
    setMeta("property", "og:locale", "fr_FR");
    setMeta("property", "og:image", `${origin}${SHARE_IMAGE_PATH}`);
  }, [fullTitle, description, pathname, brand_name]);
}
