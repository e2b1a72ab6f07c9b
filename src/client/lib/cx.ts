/**
 * Class joining without tailwind-merge, for the components of the landing page's initial bundle
 * (Button, Logo, Spinner, public layout). Their `className` must not conflict with their own
 * classes (wrap in an element instead of overriding `display`, for example). Elsewhere use `cn`.
 */
export { clsx as cx } from "clsx";
