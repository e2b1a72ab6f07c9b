import type { ComponentProps, ElementType } from "react";
import { cn } from "../../lib/cn";

/**
 * A part (a Radix primitive, an element) with our classes and nothing else: the caller's
 * `className` comes last and wins over a conflicting one (see `cn`); every other prop, `ref`
 * included, passes through unchanged.
 */
export function withClasses<C extends ElementType>(Part: C, ...classes: string[]) {
  const Component: ElementType = Part;
  return function Classed(props: ComponentProps<C>) {
    const { className, ...rest } = props as { className?: string };
    return <Component className={cn(...classes, className)} {...rest} />;
  };
}
