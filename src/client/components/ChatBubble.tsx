import type { ReactNode } from "react";
import { cn } from "../lib/cn";

/**
 * A chat message's row: the bubble on the right when it is `mine`, else on the left, at most 85 %
 * of the thread's width (70 % from 640 px). `className` gives the bubble its colours and spacing.
 */
export function ChatBubble({
  mine,
  className,
  children,
}: {
  mine: boolean;
  className: string;
  children: ReactNode;
}) {
  return (
    <li className={cn("flex", mine ? "justify-end" : "justify-start")}>
      <div className={cn("grid max-w-[85%] sm:max-w-[70%]", className)}>{children}</div>
    </li>
  );
}
